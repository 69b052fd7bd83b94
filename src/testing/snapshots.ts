/**
 * What the snapshot tests share (src/snapshots/*.e2e.test.ts): the control plane of the sandbox under
 * test, everything a test compares of a programme, and a world with a held authorisation and a
 * webhook whose deliveries fail.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createTestSandbox, type TestSandbox } from './harness.js';
import { payments, SECOND } from './payments.js';
import { startTestReceiver, type Receiver } from './receiver.js';
import { issuedCard } from './world.js';

/** Everything a test could compare of a programme: its world, clock, queue of deliveries with their attempts, jobs, journal and faults. */
export async function programmeState(sb: TestSandbox, programme?: string) {
  const get = async (path: string) => {
    const res = await sb.json('GET', `/_sandbox${path}`, { token: false, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });
    expect(res.status, path).toBe(200);
    return res.body;
  };
  // Each event with its body and every attempt, as GET /_sandbox/events/{eventId} answers it: read in
  // process rather than a request an event (a restored world holds hundreds).
  const { services } = sb.deps.programmes.get(programme ?? 'default');
  return {
    world: await get('/world'),
    clock: await get('/clock'),
    events: services.sandboxEvents.list({ limit: 1000 }).map((e) => services.sandboxEvents.get(e.id)),
    jobs: services.jobs.pending(),
    requests: await get('/requests'),
    faults: await get('/webhooks/faults'),
    apiFaults: await get('/api/faults'),
  };
}

/**
 * The sandbox and the receiver answering 503 a snapshot test works on, made before each test and
 * closed after it (its hooks are registered where this is called), with what the tests share.
 */
export function snapshotSandbox() {
  const made = {} as { sb: TestSandbox; failing: Receiver };
  beforeEach(async () => {
    made.sb = createTestSandbox();
    made.failing = await startTestReceiver(503);
  });
  afterEach(async () => {
    await made.sb.deps.services.webhooks.drain(2000);
    await made.failing.close();
  });
  const sb = () => made.sb;
  const failing = () => made.failing;

  const control = (method: string, path: string, body?: unknown, programme?: string) =>
    sb().json(method, `/_sandbox${path}`, { body, token: false, ...(programme && { headers: { 'Sandbox-Programme': programme } }) });

  const everything = (programme?: string) => programmeState(sb(), programme);

  /** A card with a held authorisation, a webhook whose deliveries fail, three attempts made and the fourth due. */
  const buildWorld = async () => {
    const pay = payments(sb());
    await pay.api('PUT', '/v1/webhooks', { body: { callbackUrl: `${failing().url}/hooks`, types: ['authorisation.updated'] } });
    const { cardId } = await issuedCard(sb());
    const held = await pay.authorise(cardId, { amount: '12.50', currency: 'EUR', capture: false });
    expect(held.body.status).toBe('pending');
    await pay.advance(2 * SECOND);
    return { pay, cardId, authorisationId: held.body.id as string };
  };

  return { made, control, everything, buildWorld };
}
