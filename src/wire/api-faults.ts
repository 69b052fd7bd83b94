/**
 * The API fault lab as the control plane and the journal show it (docs/api-faults.md: The API fault
 * lab): a fault, a rule and the rules in force, each mapped from the lab's own form.
 */
import { z } from 'zod';
import { API_FAULT_EFFECTS, API_FAULT_STATUSES, type ApiFault, type ApiFaultRule } from '../domain/api-faults.js';
import { Count } from '../domain/formats.js';
import { rangeText } from '../domain/webhook-faults.js';

/** An API fault on the wire, as the body takes it. */
export const ApiFaultView = z
  .object({
    latency: z.string().optional(),
    status: z.union(API_FAULT_STATUSES.map((s) => z.literal(s))).optional(),
    retryAfter: z.number().optional(),
    reset: z.literal(true).optional(),
    expireToken: z.literal(true).optional(),
    effect: z.enum(API_FAULT_EFFECTS),
  })
  .meta({ id: 'ApiFaultView' });
export type ApiFaultView = z.infer<typeof ApiFaultView>;

export const ApiFaultRuleView = ApiFaultView.extend({
  match: z.object({ method: z.string().optional(), path: z.string().optional(), operationId: z.string().optional() }),
  rate: z.number(),
  times: Count.optional(),
  /** What is left of `times`. */
  remaining: Count.optional(),
  /** How many requests it has faulted. */
  hits: Count,
}).meta({ id: 'ApiFaultRuleView' });
export type ApiFaultRuleView = z.infer<typeof ApiFaultRuleView>;

export const ApiFaultsView = z.object({ rules: z.array(ApiFaultRuleView), seed: z.number().int().optional() }).meta({ id: 'ApiFaultsView' });
export type ApiFaultsView = z.infer<typeof ApiFaultsView>;

const strip = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export const faultView = ({ latency, status, retryAfterSeconds, reset, expireToken, effect }: ApiFault): ApiFaultView =>
  strip({ latency: latency && rangeText(latency), status, retryAfter: retryAfterSeconds, reset, expireToken, effect });

export const ruleView = (rule: ApiFaultRule, hits: number): ApiFaultRuleView =>
  strip({ match: rule.match, ...faultView(rule.fault), rate: rule.rate, times: rule.times, remaining: rule.remaining, hits });
