/**
 * What a contract tester finds (docs/api.md: Where the sandbox differs from the service's document):
 * requests generated from the documents' own schemas (testing/schema-values.ts), sent to the main
 * operations of both planes against a world where their ids name something, are never refused for
 * a rule the document does not state. A refusal may only be one of the state rules the document
 * cannot say, each named below with its code; every answer's status is declared (the harness).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { valuesOf, type Schema } from '../testing/schema-values.js';
import { issuedCard } from '../testing/world.js';

type Document = { paths: Record<string, Record<string, any>>; components: Record<string, any> };

interface Case {
  plane: 'api' | 'control';
  method: string;
  path: string;
  /** Refusals of a valid request by a rule no JSON Schema can state (the world's state), as `code` or `code: detail fragment`. */
  state?: string[];
}

const CASES: Case[] = [
  { plane: 'api', method: 'post', path: '/customers', state: ['customer_already_exists'] },
  { plane: 'api', method: 'post', path: '/customers/{customerId}/accounts' },
  { plane: 'api', method: 'post', path: '/accounts/{accountId}/cards', state: ['card_limit_reached', 'physical_cards_unsupported'] },
  // The account's currency decides the smallest amount that converts to something; its balance, how much may be held.
  {
    plane: 'api',
    method: 'post',
    path: '/simulator/cards/{cardId}/authorisation',
    state: ['invalid_request: less than the smallest unit', 'insufficient_funds'],
  },
  // WHATWG URL parsing (a host that is a name or an address, a port up to 65535) is beyond `format: uri` and the pattern.
  { plane: 'api', method: 'put', path: '/webhooks', state: ['unknown_webhook', 'invalid_request: is not a valid URL'] },
  { plane: 'api', method: 'get', path: '/assets' },
  // `to` must be later than the programme's clock, and within 100 years; `by` more than zero, within 100 years.
  {
    plane: 'control',
    method: 'post',
    path: '/_sandbox/clock/advance',
    state: [
      'invalid_request: must be later than',
      'invalid_request: at most 100 years',
      'invalid_request: longer than zero',
      'invalid_request: the last instant RFC 3339 can write',
    ],
  },
  // A name is the programme's one snapshot of that name: a value drawn twice is refused the second time.
  { plane: 'control', method: 'post', path: '/_sandbox/snapshots', state: ['snapshot_limit_reached', 'snapshot_name_taken'] },
  { plane: 'control', method: 'get', path: '/_sandbox/events', state: ['event_not_found'] },
];

describe('requests generated from the documents', () => {
  let documents: Record<Case['plane'], Document>;
  beforeAll(async () => {
    const sb = createTestSandbox();
    documents = {
      api: (await sb.json('GET', '/openapi.json', { token: false })).body as Document,
      control: (await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body as Document,
    };
  });

  // A sandbox of its own for each operation: a webhook one made would be sent what another's clock advance makes due.
  it.each(CASES)('$method $path: no valid request is refused for a rule its document does not state', async ({ plane, method, path, state = [] }) => {
    const sb = createTestSandbox({ maxSnapshots: 1000 });
    const built = await issuedCard(sb, { currencies: ['EUR'] });
    const ids: Record<string, string> = { customerId: built.customerId, accountId: built.accountId, cardId: built.cardId };
    const document = documents[plane];
    const op = document.paths[path]![method]!;
    const resolve = (p: Record<string, any>) => (p.$ref ? document.components.parameters[p.$ref.split('/').at(-1)] : p);
    const query = (op.parameters ?? []).map(resolve).filter((p: { in: string }) => p.in === 'query') as { name: string; schema: Schema }[];
    const body = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
    const request = fc.record({
      body: body ? valuesOf(document, body) : fc.constant(undefined),
      // The programme's own query parameter names the default one: a world lives there.
      query: fc.record(Object.fromEntries(query.filter((q) => q.name !== 'programme').map((q) => [q.name, valuesOf(document, q.schema)])), {
        requiredKeys: [],
      }),
    });
    const target = `${plane === 'api' ? '/v1' : ''}${path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!)}`;
    const refusals: string[] = [];
    await fc.assert(
      fc.asyncProperty(request, async ({ body, query: q }) => {
        const search = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)]));
        const res = await sb.json(method.toUpperCase(), `${target}${search.size ? `?${search}` : ''}`, { body });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status < 400) return;
        const { code, detail } = res.body as { code: string; detail: string };
        const allowed = state.some((rule) => {
          const [want, fragment] = rule.split(': ');
          return want === code && (fragment === undefined || detail.includes(fragment));
        });
        if (!allowed) refusals.push(`${res.status} ${code}: ${detail} — for ${JSON.stringify({ body, query: q })}`);
      }),
      { numRuns: 40, seed: 42, endOnFailure: true },
    );
    expect(refusals).toEqual([]);
  });
});
