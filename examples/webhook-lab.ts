// Proving a webhook handler against card-sandbox's delivery lab: duplicates, disorder, delays and
// outages in one run, on a programme of its own with a frozen clock. Run it against
// `card-sandbox start` (the default --verify warn): `npx tsx examples/webhook-lab.ts`.
import { createServer } from 'node:http';

const BASE = process.env.CARD_SANDBOX_URL ?? 'http://127.0.0.1:4242';

interface Event { webhookType: string; eventId: string; id: string; status: string }
/** GET on the programme's API, e.g. api('/cards/<id>'). */
type Api = <T = { status: string }>(path: string) => Promise<T>;

/** What a handler did: the side effects it ran (one per event is right) and each entity's status as it sees it. */
export interface Handler { handle(event: Event): Promise<void>; effects: number; statuses: Map<string, string> }

// ✗ Naive: acts on every request, and trusts the order they arrive in.
export function naiveHandler(): Handler {
  const handler: Handler = {
    effects: 0,
    statuses: new Map(),
    async handle(event) {
      handler.effects++; // e.g. send the cardholder an e-mail
      handler.statuses.set(event.id, event.status);
    },
  };
  return handler;
}

// ✓ Idempotent: acts once per eventId, and reads the entity as it is now rather than trusting the order.
export function idempotentHandler(api: Api): Handler {
  const seen = new Set<string>(); // in production: a unique key, written with the side effect
  const handler: Handler = {
    effects: 0,
    statuses: new Map(),
    async handle(event) {
      if (seen.has(event.eventId)) return;
      const now = await api(`/${event.webhookType.replace('.updated', '')}s/${event.id}`);
      seen.add(event.eventId);
      handler.effects++;
      handler.statuses.set(event.id, now.status);
    },
  };
  return handler;
}

/**
 * Runs a handler through the lab: a programme with a frozen clock, a receiver, the faults, a
 * world of customers, accounts and cards (every change an event), then ten minutes of sandbox time
 * for delays, holds and retries to play out. Answers what the handler made of it and the truth.
 */
export async function runLab(makeHandler: (api: Api) => Handler, faults: object) {
  const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${BASE}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${await res.text()}`);
    return (res.status === 204 ? undefined : await res.json()) as T;
  };
  const programme = await json<{ id: string; apiKey: string; apiSecret: string }>('/_sandbox/programmes', { method: 'POST', body: JSON.stringify({ clock: '2026-01-01T00:00:00Z' }) });
  const control = <T = unknown>(method: string, path: string, body?: unknown) => json<T>(`/_sandbox${path}${path.includes('?') ? '&' : '?'}programme=${programme.id}`, { method, body: JSON.stringify(body) });
  const { token } = await json<{ token: string }>('/v1/auth/token', { method: 'POST', body: JSON.stringify({ apiKey: programme.apiKey, apiSecret: programme.apiSecret }) });
  const api: Api = (path) => json(`/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const handler = makeHandler(api);

  // The receiver answers 200 once the handler is done, 500 if it throws (then the sandbox retries).
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handler.handle(JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
        () => res.writeHead(200).end(),
        (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(error.message),
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  try {
    await control('PUT', '/webhooks', { callbackUrl, types: ['customer.updated', 'account.updated', 'card.updated'] });
    await control('PUT', '/webhooks/faults', faults);
    await control('POST', '/seed', {
      customers: [
        { externalId: 'alice', accounts: [{ currencies: ['EUR'], cards: [{ status: 'inactive' }] }, { currencies: ['GBP'], cards: [{}] }] },
        { externalId: 'bob', status: 'inactive', accounts: [{ currencies: ['USD'], cards: [{}] }] },
        { externalId: 'carol', status: 'initiating' },
      ],
    });
    await control('POST', '/clock/advance', { by: '10m' });

    const truth = new Map<string, string>();
    for (const kind of ['customers', 'accounts', 'cards']) for (const item of await api<{ id: string; status: string }[]>(`/${kind}`)) truth.set(item.id, item.status);
    const events = await control<{ deliveries: { status: string }[] }[]>('GET', '/events?limit=1000');
    return { handler, truth, events: events.length, delivered: events.every((e) => e.deliveries.every((d) => d.status === 'delivered')) };
  } finally {
    receiver.close();
    await json(`/_sandbox/programmes/${programme.id}`, { method: 'DELETE' });
  }
}

// Run directly: both handlers, every fault at once.
if (import.meta.url === `file://${process.argv[1]}`) {
  const faults = { duplicate: 0.3, reorder: 0.5, delay: '1s-30s', fail: { status: 503, rate: 0.3 }, timeout: 0.1, seed: 7 };
  for (const [name, make] of [['naive', () => naiveHandler()], ['idempotent', idempotentHandler]] as const) {
    const lab = await runLab(make, faults);
    const stale = [...lab.truth].filter(([id, status]) => lab.handler.statuses.get(id) !== status).length;
    console.log(`${name}: ${lab.handler.effects} side effects for ${lab.events} events, ${stale} entities out of date`);
  }
}
