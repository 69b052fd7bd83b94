/**
 * The built CLI as an integrator uses the delivery lab: `start --webhook-faults`, `listen`
 * forwarding to a real receiver in --verify strict mode (no token, no signature) and cleaning up
 * on Ctrl-C or SIGTERM, and the lab's commands with their exit codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../testing/cli.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { assertBuilt, runCli, spawnCli, startSandbox, waitForOutput, type RunningCli } from '../testing/spawn.js';
import { HUNG_MS } from '../testing/wait.js';

let sandbox: RunningCli;
let receiver: Receiver;
// The lab's commands run in this process, through the CLI's own entry; `listen`, which waits for a signal, is spawned.
const cli = (...args: string[]) => runCommand([...args, '--url', sandbox.url]);
const control = async (method: string, path: string, body?: unknown): Promise<any> => {
  const res = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? undefined : res.json();
};
const newCustomer = async (externalId: string) =>
  (await control('POST', '/seed', { customers: [{ externalId, status: 'initiating' }] })).customers[0].id as string;

beforeAll(async () => {
  assertBuilt();
  receiver = await startTestReceiver();
  sandbox = await startSandbox(['--verify', 'strict', '--clock', '2026-03-01T09:00:00Z', '--webhook-faults', 'duplicate=1']);
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.close();
});

describe('card-sandbox listen', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('forwards to the URL, prints each delivery, and deletes the subscription on %s', async (signal) => {
    const listening = spawnCli(['listen', '--forward-to', `${receiver.url}/${signal}`, '--types', 'customer.updated', '--url', sandbox.url]);
    await waitForOutput(listening, (_, err) => err.includes('Ctrl-C to stop'));
    const [hook] = await control('GET', '/webhooks');
    expect(hook).toMatchObject({ callbackUrl: `${receiver.url}/${signal}`, types: ['customer.updated'] });
    const { keyId } = await control('GET', '/webhooks/verification-key');
    expect(listening.stderr()).toContain(`Ready! Forwarding customer.updated to ${receiver.url}/${signal} (webhook ${hook.id})`);
    expect(listening.stderr()).toContain(`key ${keyId}`);

    const customerId = await newCustomer(`listen-${signal}`);
    // --webhook-faults duplicate=1: each event twice.
    await waitForOutput(listening, (out) => out.includes('[duplicate]'));
    const lines = listening.stdout().trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^2026-03-01T09:00:00.000Z  customer.updated  ${customerId}  → 200  \\d+ms  event `)),
      expect.stringMatching(new RegExp(`^2026-03-01T09:00:00.000Z  customer.updated  ${customerId}  → 200  \\d+ms  \\[duplicate\\]  event `)),
    ]);
    expect(receiver.requests.filter((r) => r.path === `/${signal}`)).toHaveLength(2);

    listening.child.kill(signal);
    const run = await listening.exited;
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`deleted webhook ${hook.id}`);
    expect(await control('GET', '/webhooks')).toEqual([]);
  });

  it('exits 1 with the problem when the URL is refused', async () => {
    const run = await runCli(['listen', '--forward-to', 'not a url', '--url', sandbox.url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('callbackUrl');
    expect(await control('GET', '/webhooks')).toEqual([]);
  });
});

describe('the delivery lab commands', () => {
  it('shows the faults --webhook-faults set, changes and clears them', async () => {
    expect((await cli('webhooks', 'faults', 'show')).stdout).toBe('faults for all webhooks: duplicate=1\n');
    const set = await cli('webhooks', 'faults', 'set', 'reorder=0.5,delay=1s-5s,seed=9', '--json');
    expect(JSON.parse(set.stdout)).toEqual({ scope: 'programme', faults: { reorder: 0.5, delay: '1s-5s', seed: 9 } });
    const bad = await cli('webhooks', 'faults', 'set', 'reorder=5');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/reorder:? must be a probability from 0 to 1/);
    expect(bad.stderr.match(/must be a probability/g)).toHaveLength(1);
    const usage = await cli('webhooks', 'faults', 'set', 'reorderr=0.5');
    expect(usage.code).toBe(2);
    expect((await cli('webhooks', 'faults', 'clear')).code).toBe(0);
    expect((await cli('webhooks', 'faults')).stdout).toBe('faults for all webhooks: none\n');
  });

  it('pauses and resumes, retries and exhausts, resends a window', async () => {
    const hook = await control('PUT', '/webhooks', { callbackUrl: `${receiver.url}/lab`, types: ['customer.updated'] });
    expect((await cli('webhooks', 'pause')).stdout).toContain('paused');
    await newCustomer('paused');
    const [event] = await control('GET', '/events?limit=1');
    expect(event.deliveries[0]).toMatchObject({ status: 'pending', paused: true });
    const resumed = await cli('webhooks', 'resume', '--json');
    expect(JSON.parse(resumed.stdout)).toEqual({ scope: 'programme', paused: false, deliveries: 1 });
    await waitFor(async () => (await control('GET', `/events/${event.id}`)).deliveries[0].status === 'delivered');
    const shown = await cli('events', 'show', event.id);
    expect(shown.stdout).toMatch(/#\s+AT\s+OUTCOME\s+MS\n1\s+2026-03-01T09:00:00.000Z\s+200/);

    expect((await cli('deliveries', 'retry', event.deliveries[0].id)).code).toBe(1);
    expect((await cli('deliveries', 'exhaust', '3b241101-e2bb-4255-8caf-4136c566a962')).stderr).toMatch(/^Delivery not found/);
    const resent = await cli('events', 'resend', '--type', 'customer.updated', '--since', '2026-03-01T09:00:00Z');
    expect(resent.stdout).toMatch(/^✓ \d+ events queued again: \d+ deliveries\n$/);
    expect((await cli('events', 'resend')).code).toBe(2);
    await control('DELETE', `/webhooks/${hook.id}`);
  });

  it('lists the new commands in the help', async () => {
    const help = (await runCommand(['--help'])).stdout;
    for (const command of ['listen', 'webhooks', 'deliveries']) expect(help).toContain(`  ${command} `);
    expect((await runCommand(['webhooks', 'faults', 'set', '--help'])).stdout).toContain(
      "$ card-sandbox webhooks faults set 'duplicate=0.2,reorder=0.2,delay=2s-30s'",
    );
  });
});

/** Until `condition` holds; the limit only says "hung", whatever the machine's load. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs = HUNG_MS) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
