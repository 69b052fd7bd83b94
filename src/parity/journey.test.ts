import { expect, test } from 'vitest';
import { OPERATIONS } from '../client/api.generated.js';
import { chainOf, JOURNEY } from './journey.js';
import { notice } from './notice.js';
import type { OperationId, StepContext } from './step.js';

// The parity journey (docs/parity.md: The journey) holds together: every operation a sandbox account
// may call is in it, each step's values come from a step before it, and it never changes credentials
// or signing keys.
const NEVER: OperationId[] = ['updateCredentials', 'deleteCredentials', 'updateSigningKey', 'deleteSigningKey'];

test('steps have unique ids and name operations of the API', () => {
  expect(new Set(JOURNEY.map((s) => s.id)).size).toBe(JOURNEY.length);
  for (const step of JOURNEY) expect(OPERATIONS, step.id).toHaveProperty(step.operationId);
});

test('it calls every operation but the four that change credentials or signing keys, which it never calls', () => {
  const called = new Set(JOURNEY.map((s) => s.operationId));
  expect(Object.keys(OPERATIONS).filter((op) => !called.has(op as OperationId))).toEqual(NEVER);
});

test('every value a step takes — path parameter, body, query, Idempotency-Key, polled resource — was kept by a step before it', () => {
  const kept = new Set(['unknown']);
  for (const step of JOURNEY) {
    const needed = new Set<string>();
    const context: StepContext = {
      value: (label) => (needed.add(label), 'value'),
      run: 'run',
      unknownId: 'unknown',
      credentials: { apiKey: 'k', apiSecret: 's' },
      wallet: () => (needed.add('chain'), { chainId: 'eip155:1:0x0', signChallenge: () => ({}) }),
    };
    for (const label of Object.values(step.params ?? {})) needed.add(label);
    step.body?.(context);
    step.query?.(context);
    if (step.idempotencyKeyOf !== undefined)
      expect(
        JOURNEY.findIndex((s) => s.id === step.idempotencyKeyOf),
        step.id,
      ).toBeLessThan(JOURNEY.indexOf(step));
    for (const label of needed) expect(kept, `${step.id} needs ${label}`).toContain(label);
    for (const label of Object.keys(step.keep ?? {})) kept.add(label);
    for (const track of step.poll ?? []) {
      for (const label of [...Object.values(track.params), ...(track.match ? [track.match.label] : [])])
        expect(kept, `${step.id} polls with ${label}`).toContain(label);
      kept.add(track.label);
    }
    if (step.creates) expect(Object.keys(step.keep ?? {}), step.id).toContain(step.creates.label);
  }
});

test('the refusals are in it: an unknown id, a bad body, an invalid state transition, a missing token, a reused Idempotency-Key', () => {
  const ids = JOURNEY.map((s) => s.id);
  for (const id of ['refuse-unknown-id', 'refuse-bad-body', 'refuse-invalid-transition', 'refuse-missing-token', 'refuse-reused-idempotency-key'])
    expect(ids).toContain(id);
  expect(JOURNEY.find((s) => s.id === 'refuse-missing-token')!.anonymous).toBe(true);
});

test('what it makes, it ends: its card deleted, its account closed, its webhooks deleted, its customer deactivated last', () => {
  const last = (operationId: OperationId) => JOURNEY.map((s) => s.operationId).lastIndexOf(operationId);
  expect(last('deleteCard')).toBeGreaterThan(last('simulateCardAuthorisationRelease'));
  expect(last('closeAccount')).toBeGreaterThan(last('deleteCard'));
  expect(JOURNEY.at(-1)!.operationId).toBe('deactivateCustomer');
  const webhooks = JOURNEY.filter((s) => s.creates?.kind === 'webhook').map((s) => s.creates!.label);
  expect(JOURNEY.filter((s) => s.operationId === 'deleteWebhook').map((s) => s.params!.webhookId)).toEqual(webhooks);
});

test('chainOf picks Ethereum Sepolia, else the first EVM chain, else the first', () => {
  expect(chainOf([{ id: 'eip155:300' }, { id: 'eip155:11155111' }])).toBe('eip155:11155111');
  expect(chainOf([{ id: 'solana:x' }, { id: 'eip155:1' }])).toBe('eip155:1');
  expect(chainOf([{ id: 'solana:x' }])).toBe('solana:x');
  expect(chainOf({ chains: [] })).toBeUndefined();
});

test('the notice says what it makes on the upstream, that nothing else is touched, and how it ends what it made', () => {
  const text = notice(JOURNEY, { upstream: 'https://api.example.com/v1', apiKey: 'key-1', local: 'a new programme', ownKey: true });
  expect(text).toContain(`parity: ${JOURNEY.length} steps against https://api.example.com/v1 (API key key-1) and a new programme.`);
  expect(text).toContain('it makes 2 customers (3 if the upstream takes a reused Idempotency-Key), 1 account, 3 virtual cards, 3 simulated authorisations');
  expect(text).toContain('touches nothing else: no credential is changed, and no signing key but one of its own, registered for the run and deleted after it.');
  expect(notice(JOURNEY, { upstream: 'u', apiKey: 'k', local: 'l', ownKey: false })).toContain('and no signing key.');
});
