/**
 * Tracing as a user turns it on (docs/tracing.md: Tracing): the built CLI started with
 * OpenTelemetry's variables sends its spans to a real OTLP/HTTP receiver on loopback, read here from
 * the wire (testing/otlp.ts), as protobuf and as JSON. One `POST /v1/customers` sent with a
 * `traceparent` is a SERVER span in the caller's trace, with the change it made as an event, and
 * every attempt to deliver its webhook — the retries after `clock advance` included — is a CLIENT
 * span in that same trace, whose `traceparent` the receiver gets. Jobs run later stay in the trace
 * of the request that scheduled them. Without the variables, nothing is traced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { exportedSpans, SPAN_KIND, type ExportedSpan } from '../testing/otlp.js';
import { startTestReceiver, type Receiver } from '../testing/receiver.js';
import { assertBuilt, startSandbox, type RunningCli } from '../testing/spawn.js';
import { testWallet } from '../testing/world.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

async function send(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<any>;
}

const token = async (url: string) =>
  `Bearer ${(await send(url, 'POST', '/v1/auth/token', { apiKey: DEFAULT_API_KEY, apiSecret: DEFAULT_API_SECRET })).token as string}`;

describe.each(['http/protobuf', 'http/json'])('tracing to an OTLP receiver over %s', (protocol) => {
  let collector: Receiver;
  let hooks: Receiver;
  let sandbox: RunningCli;
  let spans: ExportedSpan[];
  let customer: { id: string; status: string };
  let authorisation: { id: string };
  const authTrace = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

  beforeAll(async () => {
    assertBuilt();
    collector = await startTestReceiver(200);
    // The receiver fails the first three attempts: two made at once, the third after time travel.
    let answered = 0;
    hooks = await startTestReceiver();
    hooks.answer(() => (++answered <= 3 ? 500 : 200));
    sandbox = await startSandbox(['--clock', '2026-03-01T09:00:00Z'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=s3cret%20value',
    });
    const seeded = await send(sandbox.url, 'POST', '/_sandbox/seed', {
      customers: [{ externalId: 'payer', accounts: [{ currencies: ['EUR'], cards: [{}] }] }],
    });
    const auth = await token(sandbox.url);
    await send(sandbox.url, 'PUT', '/v1/webhooks', { callbackUrl: `${hooks.url}/hooks`, types: ['customer.updated'] }, { Authorization: auth });
    customer = await send(
      sandbox.url,
      'POST',
      '/v1/customers',
      { chainId: testWallet('alice').chainId, externalId: 'alice' },
      { Authorization: auth, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    );
    await hooks.waitFor(2);
    await send(sandbox.url, 'POST', '/_sandbox/clock/advance', { by: '10s' });
    await hooks.waitFor(4);
    // A payment whose capture and settlement are jobs, run by the next advance.
    const card = seeded.customers[0].accounts[0].cards[0].id as string;
    authorisation = await send(
      sandbox.url,
      'POST',
      `/v1/simulator/cards/${card}/authorisation`,
      { amount: '12.5', currency: 'EUR' },
      { Authorization: auth, traceparent: `00-${authTrace}-${CALLER_SPAN}-01` },
    );
    await send(sandbox.url, 'POST', '/_sandbox/clock/advance', { by: '1m' });
    // Stopping sends the spans still waiting: the receiver then has them all.
    await sandbox.stop();
    spans = collector.requests.flatMap(exportedSpans);
  });

  afterAll(async () => {
    await sandbox?.stop();
    await hooks?.close();
    await collector?.close();
  });

  it('says where it traces to, and sends there with the headers asked for, as the service named card-sandbox', () => {
    expect(JSON.parse(sandbox.process.stdout().split('\n')[0]!).tracing).toEqual({ url: `${collector.url}/v1/traces`, protocol });
    expect(collector.requests.length).toBeGreaterThan(0);
    for (const request of collector.requests) {
      expect(request.path).toBe('/v1/traces');
      expect(request.headers['x-collector-token']).toBe('s3cret value');
      expect(request.headers['content-type']).toBe(protocol === 'http/json' ? 'application/json' : 'application/x-protobuf');
    }
    expect(spans[0]!.resource['service.name']).toBe('card-sandbox');
  });

  it('makes the request a SERVER span in the caller’s trace, named by its route, with what it changed as an event', () => {
    const server = spans.filter((s) => s.traceId === CALLER_TRACE && s.kind === SPAN_KIND.server);
    expect(server).toHaveLength(1);
    expect(server[0]).toMatchObject({
      name: 'POST /v1/customers',
      parentSpanId: CALLER_SPAN,
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/customers',
        'url.path': '/v1/customers',
        'http.response.status_code': 201,
        'card_sandbox.programme': 'default',
      },
      events: [
        {
          name: 'customer.updated',
          attributes: { 'card_sandbox.resource': 'customer', 'card_sandbox.resource.id': customer.id, 'card_sandbox.status.to': customer.status },
        },
      ],
    });
  });

  it('makes every delivery attempt, retries after clock advance included, a CLIENT span of that trace, whose traceparent the receiver gets', () => {
    const server = spans.find((s) => s.traceId === CALLER_TRACE && s.kind === SPAN_KIND.server)!;
    const attempts = spans
      .filter((s) => s.traceId === CALLER_TRACE && s.kind === SPAN_KIND.client)
      .sort((a, b) => (a.attributes['card_sandbox.webhook.attempt'] as number) - (b.attributes['card_sandbox.webhook.attempt'] as number));
    expect(attempts.map((s) => [s.attributes['card_sandbox.webhook.attempt'], s.attributes['http.response.status_code'], s.status])).toEqual([
      [1, 500, 2],
      [2, 500, 2],
      [3, 500, 2],
      [4, 200, 0],
    ]);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({
        name: 'webhook customer.updated',
        parentSpanId: server.spanId,
        attributes: { 'url.full': `${hooks.url}/hooks`, 'card_sandbox.webhook.type': 'customer.updated', 'http.request.method': 'POST' },
      });
    }
    const received = hooks.requests.map((r) => r.headers.traceparent);
    expect(received).toEqual(attempts.map((s) => `00-${CALLER_TRACE}-${s.spanId}-01`));
  });

  it('keeps the jobs a request scheduled, and the webhooks they cause, in its trace', () => {
    const jobs = spans.filter((s) => s.traceId === authTrace && s.kind === SPAN_KIND.internal);
    expect(jobs.map((s) => s.name)).toEqual(expect.arrayContaining(['job authorisation.auto-capture', 'job transaction.settle']));
    const capture = jobs.find((s) => s.name === 'job authorisation.auto-capture')!;
    expect(capture.attributes['card_sandbox.job.subject']).toBe(authorisation.id);
    expect(capture.events).toContainEqual(expect.objectContaining({ name: 'authorisation.updated' }));
    // The advance that ran them is linked from each job's span.
    const advance = spans.find(
      (s) => s.name === 'POST /_sandbox/clock/advance' && s.traceId !== CALLER_TRACE && capture.links.some((l) => l.spanId === s.spanId),
    );
    expect(advance).toBeDefined();
  });
});

describe('tracing off', () => {
  it('is off without an endpoint: the ready line names no tracing, and webhooks go without a traceparent', async () => {
    assertBuilt();
    const hooks = await startTestReceiver(200);
    // Every other variable of tracing, but no endpoint.
    const sandbox = await startSandbox([], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'not-on', OTEL_TRACES_SAMPLER: 'always_on' });
    try {
      expect(JSON.parse(sandbox.process.stdout().split('\n')[0]!)).not.toHaveProperty('tracing');
      await send(sandbox.url, 'POST', '/_sandbox/seed', { webhooks: [{ callbackUrl: `${hooks.url}/hooks`, types: ['customer.updated'] }] });
      await send(
        sandbox.url,
        'POST',
        '/v1/customers',
        { chainId: testWallet('bob').chainId, externalId: 'bob' },
        { Authorization: await token(sandbox.url), traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
      );
      const [delivered] = await hooks.waitFor(1);
      expect(delivered!.headers.traceparent).toBeUndefined();
    } finally {
      await sandbox.stop();
      await hooks.close();
    }
  });
});
