/**
 * A difference between the two services' answers to one step, and its kinds (docs/parity.md: Reading a
 * difference). `where` says where in the answer (`status`, `body.merchant.city`, `body[<card-2>]`,
 * `account.status`); `upstream` and `local` are what each service had there, `null` for nothing.
 */

export const DIFFERENCE_KINDS = [
  'status',
  'content-type',
  'missing-field',
  'extra-field',
  'type',
  'enum-value',
  'error-code',
  'order',
  'state-sequence',
  'timing',
] as const;

export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];

export interface Difference {
  kind: DifferenceKind;
  where: string;
  upstream: unknown;
  local: unknown;
}
