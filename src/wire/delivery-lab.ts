/**
 * The delivery lab on the control plane (docs/webhooks.md: Webhooks → The delivery lab): the faults in
 * force and where they come from, pauses, and a delivery retried or given up.
 */
import { z } from 'zod';
import { Count } from '../domain/formats.js';
import { rangeText, type Faults } from '../domain/webhook-faults.js';
import { DeliverySummary } from './outbox.js';

/** The faults on the wire: as the body takes them, with what is left of `fail.times`. */
const FailFault = z.union([z.object({ status: z.number().int(), times: Count, remaining: Count }), z.object({ status: z.number().int(), rate: z.number() })]);

export const FaultsView = z
  .object({
    duplicate: z.number().optional(),
    reorder: z.number().optional(),
    delay: z.string().optional(),
    fail: FailFault.optional(),
    timeout: z.number().optional(),
    forge: z.number().optional(),
    seed: z.number().int().optional(),
  })
  .meta({ id: 'FaultsView' });
export type FaultsView = z.infer<typeof FaultsView>;

/** In the order the body lists them. */
export function faultsView({ duplicate, reorder, delay, fail, timeout, forge, seed }: Faults): FaultsView {
  const view: FaultsView = { duplicate, reorder, delay: delay && rangeText(delay), fail, timeout, forge, seed };
  return Object.fromEntries(Object.entries(view).filter(([, v]) => v !== undefined));
}

const LabScope = z.enum(['programme', 'webhook']);
export type LabScope = z.infer<typeof LabScope>;

/** The faults in force and where they come from: the subscription's own, or the programme's. */
export const FaultsAnswer = z.object({ scope: LabScope, faults: FaultsView }).meta({ id: 'FaultsAnswer' });
export type FaultsAnswer = z.infer<typeof FaultsAnswer>;

export const PauseAnswer = z
  .object({
    scope: LabScope,
    webhookId: z.string().optional(),
    /** Whether its deliveries are held now (a subscription resumed stays held while the programme is paused). */
    paused: z.boolean(),
    /** How many pending deliveries this held back (pause) or let go (resume). */
    deliveries: Count,
  })
  .meta({ id: 'PauseAnswer' });
export type PauseAnswer = z.infer<typeof PauseAnswer>;

export const DeliveryAnswer = DeliverySummary.extend({ eventId: z.string() }).meta({ id: 'DeliveryAnswer' });
export type DeliveryAnswer = z.infer<typeof DeliveryAnswer>;
