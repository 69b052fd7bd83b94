/**
 * The go-live report on the wire (GET /_sandbox/report, docs/go-live.md: Before you go live): the
 * shape of what domain/report/ computes, and the query that names the programmes it covers.
 */
import { z } from 'zod';
import { Count } from '../domain/formats.js';
import { RESOURCE_TYPES, WEBHOOK_TYPES } from '../domain/outbox.js';
import { PROGRAMME_ID } from '../domain/programme.js';
import { CHECK_IDS, CHECK_STATUSES, ENDED_KEPT, type Report as GoLiveReport } from '../domain/report/index.js';
import { Instant, InstantInput } from './sandbox.js';

const CheckStatus = z.enum(CHECK_STATUSES);
const Tally = z.record(z.string(), Count);

/** Most programmes one report may name in a list (`all` has no limit). */
export const MAX_LISTED_PROGRAMMES = 1000;

/** `?programmes=`: `all`, or programme ids (or `default`) separated by commas; `?since=` with `all`. */
export const ReportQuery = z.object({
  programmes: z
    .string()
    .transform((text, ctx): 'all' | string[] => {
      if (text.trim() === 'all') return 'all';
      const ids = text.split(',').map((id) => id.trim());
      const bad = ids.find((id) => !PROGRAMME_ID.test(id));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `must be "all" or programme ids (or "default") separated by commas; "${bad}" is not one` });
        return z.NEVER;
      }
      if (ids.length > MAX_LISTED_PROGRAMMES) {
        ctx.addIssue({ code: 'custom', message: `names ${ids.length} programmes, more than ${MAX_LISTED_PROGRAMMES}: use "all"` });
        return z.NEVER;
      }
      return [...new Set(ids.map((id) => id.toLowerCase()))];
    })
    .optional()
    .meta({
      description: `The programmes to report on together: \`all\` (every programme, and those deleted since the sandbox started, the newest ${ENDED_KEPT}), or ids separated by commas. Without it, the programme the request names.`,
    }),
  since: InstantInput.optional().meta({ description: 'With `programmes=all`: only the programmes made at or after this instant (those of one test run).' }),
});

/** What of a list the integration saw and never saw; `hints`, for each never seen, what makes it. */
const SeenAndNever = z.object({ seen: z.array(z.string()), never: z.array(z.string()), hints: z.record(z.string(), z.string()) });

/** GET /_sandbox/report: the go-live report's checks, with evidence, and coverage. */
export const Report = z
  .object({
    /** The programmes it covers. */
    programmes: z.array(z.string()),
    /** When it was made (the machine's clock). */
    generatedAt: Instant,
    /** From the first request's arrival to the last one's answer (the machine's clock), when any was journaled. */
    span: z.object({ from: Instant, to: Instant }).optional(),
    summary: z.object(Object.fromEntries(CHECK_STATUSES.map((s) => [s, Count])) as Record<(typeof CHECK_STATUSES)[number], typeof Count>),
    checks: z.array(
      z.object({
        /** Stable: the JUnit test name. */
        id: z.enum(CHECK_IDS),
        title: z.string(),
        status: CheckStatus,
        /** One line: what was found — what failed, for a failure. */
        finding: z.string(),
        /** What was seen: counts, and the requests or deliveries at fault (the first ten) with why. */
        evidence: z.record(z.string(), z.unknown()),
        /** What the sandbox could not judge: what, why, and what to do instead. */
        notJudged: z.array(z.object({ what: z.string(), why: z.string(), instead: z.string() })).optional(),
        /** How to fix a failure, or how to exercise the check. */
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
      /** The transaction directions and fee types seen and never, and whether an authorisation was ever refused insufficient_funds. */
      money: z.object({
        directions: SeenAndNever,
        feeTypes: SeenAndNever,
        insufficientFunds: z.object({ met: z.boolean(), refusals: Count, hint: z.string().optional() }),
      }),
    }),
  })
  .meta({ id: 'Report' }) satisfies z.ZodType<GoLiveReport>;
export type Report = z.infer<typeof Report>;
