/**
 * The go-live report on the wire (GET /_sandbox/report, docs/go-live.md: Before you go live): the
 * shape of what domain/report.ts computes.
 */
import { z } from 'zod';
import { Count } from '../domain/formats.js';
import { RESOURCE_TYPES, WEBHOOK_TYPES } from '../domain/outbox.js';
import { CHECK_STATUSES, type Report as GoLiveReport } from '../domain/report.js';

const CheckStatus = z.enum(CHECK_STATUSES);
const Tally = z.record(z.string(), Count);

/** GET /_sandbox/report: the go-live report's checks, with evidence, and coverage. */
export const Report = z
  .object({
    summary: z.object({ pass: Count, fail: Count, 'not exercised': Count }),
    checks: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        status: CheckStatus,
        /** What was seen: counts, and the ids of the requests or deliveries at fault (the first ten). */
        evidence: z.record(z.string(), z.unknown()),
        /** How to fix a failure, or how to exercise it. */
        hint: z.string().optional(),
      }),
    ),
    coverage: z.object({
      operations: z.array(z.object({ operationId: z.string(), method: z.string(), path: z.string(), calls: Count, statuses: Tally })),
      neverCalled: z.array(z.string()),
      states: z.array(
        z.object({
          resource: z.enum(RESOURCE_TYPES),
          reached: z.array(z.string()),
          never: z.array(z.string()),
          /** For each state never reached, the request, control or wait that reaches it. */
          hints: z.record(z.string(), z.string()),
        }),
      ),
      webhooks: z.array(z.object({ type: z.enum(WEBHOOK_TYPES), attempts: Count, answers: Tally })),
    }),
  })
  .meta({ id: 'Report' }) satisfies z.ZodType<GoLiveReport>;
export type Report = z.infer<typeof Report>;
