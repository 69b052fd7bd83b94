/**
 * What the large-restore tests use (src/snapshots/staged-restore.test.ts): a snapshot file large enough
 * to be written in steps, the control plane, and what the database holds of a programme whatever
 * its requests are told. Not shipped.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { IN_TURNS_FROM } from '../snapshots/put-back.js';
import type { TestSandbox } from './harness.js';

const CURRENT = readFileSync(new URL('../snapshots/fixtures/version-3.snapshot.json', import.meta.url), 'utf8');
/** Customers added to the fixture's world: enough for a restore written in steps. */
export const ADDED = IN_TURNS_FROM;

type LastChange = (customer: Record<string, unknown>, first: Record<string, unknown>) => void;
const unchanged: LastChange = () => undefined;
/** Each file made, by its change: a file is a string, made once and shared by the tests that restore it. */
const made = new Map<LastChange, string>();

/** The fixture's world and ADDED customers more, its digest made to match; `last` changes the last one. */
export function largeFile(last: LastChange = unchanged): string {
  let file = made.get(last);
  if (file === undefined) made.set(last, (file = build(last)));
  return file;
}

function build(last: LastChange): string {
  const json = JSON.parse(CURRENT);
  const customers = json.state.world.customers as Record<string, unknown>[];
  const model = customers[0]!;
  for (let i = 0; i < ADDED; i++) {
    const hex = i.toString(16).padStart(12, '0');
    customers.push({ ...model, id: `00000000-0000-4000-8000-${hex}`, externalId: `added-${i}`, chainId: `eip155:300:0x${hex.padStart(40, 'a')}` });
  }
  last(customers.at(-1)!, customers[customers.length - ADDED]!);
  json.sha256 = createHash('sha256').update(JSON.stringify(json.state)).digest('hex');
  return JSON.stringify(json);
}

/** A large file whose last customer is the first added one's twin: its chain id differs only in case, which only the database's index sees. */
const clash: LastChange = (last, first) =>
  Object.assign(last, { chainId: String(first.chainId).toUpperCase().replace('EIP155', 'eip155').replace('0X', '0x') });
export const clashingFile = () => largeFile(clash);

export const control = (sb: TestSandbox, method: string, path: string, body?: unknown, programme?: string) =>
  sb.json(method, `/_sandbox${path}`, { token: false, body, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });

/** How many customers the database holds under `programme` (a programme's id, or a staging one's). */
export const stored = (sb: TestSandbox, programme: string) =>
  sb.deps.store.sqlite.prepare('SELECT count(*) FROM customers WHERE programme_id = ?').pluck().get(programme) as number;

/** A turn of the event loop. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Another programme, with a customer of its own and a token: what a large restore must not hold up. */
export async function otherProgramme(sb: TestSandbox) {
  const other = (await control(sb, 'POST', '/programmes', {})).body;
  await control(sb, 'POST', '/seed', { customers: [{ externalId: 'elsewhere' }] }, other.id);
  const token = (await sb.json('POST', '/v1/auth/token', { token: false, body: { apiKey: other.apiKey, apiSecret: other.apiSecret } })).body.token as string;
  return { id: other.id as string, customers: () => sb.json('GET', '/v1/customers', { token }) };
}
