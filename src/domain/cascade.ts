/**
 * How a parent's state governs its children (docs/api.md: Customers, accounts and cards). A new child,
 * and a child's activation, need every parent active. Deactivating a parent takes down its active
 * children and marks them; activating it brings back exactly those, not what the integrator
 * deactivated itself. A child that comes to life — an account deployed, a card issued — while a
 * parent is inactive arrives inactive and marked, so that the parent's activation brings it too.
 */
import type { ErrorCode } from './errors.js';

export interface Parent {
  kind: 'customer' | 'account';
  id: string;
  status: string;
}

export interface Child {
  status: string;
  cascadeDeactivated: boolean;
}

const NOT_ACTIVE: Record<Parent['kind'], ErrorCode> = { customer: 'customer_not_active', account: 'account_not_active' };

/** The refusal for the first parent that is not active, `why` saying what needs it; undefined when all are. */
export function inactiveParent(parents: readonly Parent[], why: (parent: Parent) => string): { code: ErrorCode; detail: string } | undefined {
  const parent = parents.find((p) => p.status !== 'active');
  return parent && { code: NOT_ACTIVE[parent.kind], detail: `${parent.kind} ${parent.id} is ${parent.status}; ${why(parent)}` };
}

/** Deactivating a parent takes down these children. */
export const takenDownWithParent = (child: Child): boolean => child.status === 'active';

/** Activating a parent brings back these children: exactly those its deactivation took down. */
export const restoredWithParent = (child: Child): boolean => child.status === 'inactive' && child.cascadeDeactivated;

/** The state a child coming to life in state `next` arrives in, given whether all its parents are active. */
export function arrival<S extends string>(next: S, parentsActive: boolean): { status: S | 'inactive'; cascadeDeactivated: boolean } {
  return parentsActive ? { status: next, cascadeDeactivated: false } : { status: 'inactive', cascadeDeactivated: true };
}
