/**
 * State machines as data: for each action, the states it may start from and where each one
 * leads, plus the refusal for every other state. Customers, accounts and cards each declare one
 * table; `transition` answers "state × action → next state or refusal" without side effects.
 */
import type { ErrorCode } from './errors.js';

export interface ActionRule<S extends string> {
  /** Allowed starting states and the state each one leads to. */
  readonly from: Partial<Record<S, S>>;
  /** The refusal for any other starting state. */
  readonly refuse: ErrorCode;
}

export interface Machine<S extends string, A extends string> {
  /** The entity's name as it appears in refusals ("customer", "account", "card"). */
  readonly entity: string;
  /** Every state, for exhaustive tests and documentation. */
  readonly states: readonly S[];
  readonly actions: Readonly<Record<A, ActionRule<S>>>;
}

export type Outcome<S extends string> = { ok: true; next: S } | { ok: false; code: ErrorCode; detail: string };

export function transition<S extends string, A extends string>(machine: Machine<S, A>, status: S, action: A): Outcome<S> {
  const rule = machine.actions[action];
  const next = rule.from[status];
  if (next !== undefined) return { ok: true, next };
  const allowed = Object.keys(rule.from).join(' or ');
  const wanted = [...new Set(Object.values(rule.from) as S[])].join(' or ');
  const an = /^[aeiou]/.test(machine.entity) ? `an ${machine.entity}` : `a ${machine.entity}`;
  return {
    ok: false,
    code: rule.refuse,
    detail: `cannot ${action.replaceAll('_', ' ')} ${an} that is ${status}: only ${an} that is ${allowed} can become ${wanted}`,
  };
}
