/**
 * The API fault lab as the control plane and the journal show it (docs/api-faults.md: The API fault
 * lab): a fault, a rule and the rules in force, each mapped from the lab's own form.
 */
import { z } from 'zod';
import { API_FAULT_FIELD_NAMES } from '../domain/api-fault-kinds.js';
import { FAULT_VIEW_FIELDS, type ApiFault, type ApiFaultRule } from '../domain/api-faults.js';
import { Count } from '../domain/formats.js';
import { rangeText } from '../domain/webhook-faults.js';

/** An API fault on the wire, as the body takes it: its fields in api-fault-kinds.ts's order. */
export const ApiFaultView = z.object(FAULT_VIEW_FIELDS).meta({ id: 'ApiFaultView' });
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

export const faultView = ({ latency, retryAfterSeconds, ...fault }: ApiFault): ApiFaultView => {
  const shown: Record<string, unknown> = { ...fault, latency: latency && rangeText(latency), retryAfter: retryAfterSeconds };
  return strip(Object.fromEntries(API_FAULT_FIELD_NAMES.map((f) => [f, shown[f]]))) as ApiFaultView;
};

export const ruleView = (rule: ApiFaultRule, hits: number): ApiFaultRuleView =>
  strip({ match: rule.match, ...faultView(rule.fault), rate: rule.rate, times: rule.times, remaining: rule.remaining, hits });
