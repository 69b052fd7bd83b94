/**
 * Wire-shape assertions for tests: a body carries every required field of its reference schema,
 * nothing outside the schema, and never `null`. The field lists mirror the reference's
 * Customer, Account, Card and Address schemas. Not shipped.
 */
import { expect } from 'vitest';

export interface Shape {
  required: readonly string[];
  optional?: readonly string[];
}

export const CUSTOMER: Shape = { required: ['id', 'externalId', 'chainId', 'status', 'createdAt', 'updatedAt'] };
export const ACCOUNT: Shape = { required: ['id', 'customerId', 'status', 'type', 'createdAt', 'updatedAt'], optional: ['chainId', 'currencies'] };
export const CARD: Shape = {
  required: ['id', 'accountId', 'type', 'status', 'createdAt', 'updatedAt'],
  optional: ['name', 'network', 'maskedPan', 'expirationDate', 'billingAddress'],
};
export const ADDRESS: Shape = { required: ['firstLine', 'city', 'country', 'postCode'], optional: ['secondLine', 'state'] };
export const WITH_CHALLENGE = ['challenge'];

const RFC3339_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function expectShape(body: unknown, shape: Shape, extra: readonly string[] = []): void {
  expect(body).toBeTypeOf('object');
  const record = body as Record<string, unknown>;
  for (const key of [...shape.required, ...extra]) expect(record, `missing ${key}`).toHaveProperty(key);
  const allowed = new Set([...shape.required, ...(shape.optional ?? []), ...extra]);
  expect(Object.keys(record).filter((k) => !allowed.has(k))).toEqual([]);
  expect(nullPaths(body)).toEqual([]);
  for (const key of ['createdAt', 'updatedAt']) if (key in record) expect(record[key]).toMatch(RFC3339_MS);
}

/** Paths of every `null` inside `value`. */
function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nullPaths(v, `${path}.${k}`));
}
