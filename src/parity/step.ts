/**
 * What a step of the parity journey is (docs/parity.md: The journey): an operation of the API by its
 * operationId, what its path parameters and body are made of, what it keeps from the answer for the
 * steps after it, and which resources to poll afterwards. Steps are data: the values a body needs
 * come from the step context, each side's own (its ids, its challenges, its chain).
 */
import { OPERATIONS, type Operations } from '../client/api.generated.js';

export type OperationId = keyof Operations;

/** What a resource the journey makes is, for the clean-up and the notice. */
export type ResourceKind = 'customer' | 'account' | 'card' | 'webhook';

/** What a step's body and query are made from: this run's values, and one side's. */
export interface StepContext {
  /** A value a step before kept on this side (an id, a challenge, the chain); throws Missing when there is none. */
  value(label: string): string;
  /** Short and random, the same on both sides: for external ids and the callback URL. */
  run: string;
  /** An id no resource has, the same on both sides. */
  unknownId: string;
  /** This side's API key and secret, for the token. */
  credentials: { apiKey: string; apiSecret: string };
  /** The n-th wallet of this run (1, 2, 3) on this side's chain. */
  wallet(n: number): { chainId: string; signChallenge(challenge: string): unknown };
}

/** A label a step before did not keep on this side: the step is not run there. */
export class Missing extends Error {
  constructor(readonly label: string) {
    super(`no ${label}`);
  }
}

/**
 * A resource read again and again after the step, until its status is one of `settled`: by its
 * own GET (`read`), or found in a list by a field naming another (`match`: the transaction of an
 * authorisation, kept as `label` once found).
 */
export interface Track {
  label: string;
  read: OperationId;
  params: Record<string, string>;
  match?: { field: string; label: string };
  settled: readonly string[];
}

export interface Step {
  /** Stable and unique: how the report names the step. */
  id: string;
  operationId: OperationId;
  /** What it does, for --dry-run. */
  does: string;
  /** Path parameter → the label of the value it takes. */
  params?: Record<string, string>;
  query?: (ctx: StepContext) => Record<string, string>;
  body?: (ctx: StepContext) => unknown;
  /** Label → the field of a successful answer's body to keep under it; a function for a value worked out from the body. */
  keep?: Record<string, string | ((body: unknown) => string | undefined)>;
  /** The resource a successful answer made, by the label its id is kept under. */
  creates?: { label: string; kind: ResourceKind };
  /** Send the Idempotency-Key another step sent, rather than a fresh one. */
  idempotencyKeyOf?: string;
  /** Send no Authorization header. */
  anonymous?: true;
  /** Resources to poll after a successful answer. */
  poll?: Track[];
}

export const operationOf = (id: OperationId) => OPERATIONS[id];

/** Poll the resource `label` by its own GET until its status is one of `settled`. */
export function byId(label: string, read: OperationId, param: string, settled: readonly string[]): Track {
  return { label, read, params: { [param]: label }, settled };
}
