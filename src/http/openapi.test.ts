/**
 * /openapi.json says what the sandbox requires and answers, so that a client generated from it
 * sends what the service needs: the request headers verification reads, where `--verify strict`
 * refuses a request without them; the statuses the sandbox answers on its own; and the webhooks it
 * sends, with the body and headers of a real delivery.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { generateP384, keyFingerprintId } from '../signatures/keys.js';
import { createTestSandbox, type TestSandbox } from '../testing/harness.js';
import { REFERENCE_STRUCTURE } from '../testing/openapi-schemas.js';
import { payments, SECOND } from '../testing/payments.js';
import { startTestReceiver } from '../testing/receiver.js';
import { newSigningKey, registerSigningKey, sendSigned, type TestSigningKey } from '../testing/signer.js';
import { issuedCard } from '../testing/world.js';
import { createAgents, sendAttempt } from '../webhooks/send.js';
import { WebhookEvents } from '../wire/webhook.js';

interface Parameter {
  $ref?: string;
  in?: string;
  name?: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, unknown>;
  security?: unknown[];
}
interface Document {
  security: unknown[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, Record<string, unknown>> };
}

const documentOf = async (sb: TestSandbox) => (await sb.json('GET', '/openapi.json', { token: false })).body as Document;

/** The header parameters of an operation, by name, with their components resolved. */
function headersOf(doc: Document, op: Operation): Map<string, Parameter> {
  const resolved = (op.parameters ?? []).map((p) => (p.$ref ? { ...doc.components.parameters[p.$ref.split('/').at(-1)!], ...p } : p));
  return new Map(resolved.filter((p) => p.in === 'header').map((p) => [p.name!, p]));
}

/** Each operation, at its path below the document's server (/v1). */
const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path: `/v1${path}`, method: method.toUpperCase(), op })),
  );

/** The path with each `{id}` filled with a UUID no resource has. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

const HEADERS = ['Signature', 'Signature-Input', 'Idempotency-Key', 'Content-Digest'];

/** `card.updated` → `Card`: the name the service's document gives the entity. */
const PASCAL_ENTITY = (type: string) => type.split('.')[0]!.replace(/^\w/, (c) => c.toUpperCase());

describe('/openapi.json: the request headers', () => {
  let sb: TestSandbox;
  let key: TestSigningKey;
  let doc: Document;
  beforeAll(async () => {
    sb = createTestSandbox({ verify: 'strict' });
    key = newSigningKey();
    await registerSigningKey(sb, key);
    doc = await documentOf(sb);
  });

  it('declares Signature and Signature-Input outside /auth, Idempotency-Key on each write, Content-Digest with each body, all required', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const headers = headersOf(doc, op);
      const expected = path.startsWith('/v1/auth/')
        ? []
        : ['Signature', 'Signature-Input', ...(method === 'GET' ? [] : ['Idempotency-Key']), ...(op.requestBody ? ['Content-Digest'] : [])];
      expect([...headers.keys()].filter((name) => HEADERS.includes(name)).sort(), `${method} ${path}`).toEqual(expected.sort());
      for (const name of expected) expect(headers.get(name)!.required, `${method} ${path} ${name}`).toBe(true);
    }
    expect(doc.components.parameters.IdempotencyKeyHeader!.schema).toMatchObject({ format: 'uuid' });
  });

  it('declares exactly what --verify strict refuses a request without', async () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const headers = headersOf(doc, op);
      const target = concrete(path);
      const unsigned = (await sb.json(method, target)).body;
      const verified = unsigned.code === 'invalid_signature';
      expect(headers.has('Signature') && headers.has('Signature-Input'), `${method} ${path} unsigned: ${unsigned.code}`).toBe(verified);
      if (!verified) continue;
      const body = op.requestBody ? {} : undefined;
      const noKey = (await (await sendSigned(sb, key, method, target, { body, idempotencyKey: false })).json()) as { code?: string };
      expect(noKey.code === 'missing_idempotency_key', `${method} ${path} without Idempotency-Key: ${noKey.code}`).toBe(headers.has('Idempotency-Key'));
      // Without a body there is nothing to digest; with one, a request without Content-Digest is refused.
      expect(headers.has('Content-Digest'), `${method} ${path} Content-Digest`).toBe(body !== undefined);
      if (body === undefined) continue;
      const noDigest = (await (await sendSigned(sb, key, method, target, { body, digest: false })).json()) as { code?: string };
      expect(noDigest.code, `${method} ${path} without Content-Digest`).toBe('invalid_content_digest');
    }
  });

  it('only documents them: with --verify off a request without any of them is answered', async () => {
    const off = createTestSandbox();
    const webhook = await off.json('PUT', '/v1/webhooks', { body: { callbackUrl: 'https://example.com/hooks', types: ['card.updated'] } });
    expect(webhook.status).toBe(200);
    expect(webhook.headers.get('Sandbox-Warning')).toBeNull();
    expect((await off.json('GET', `/v1/webhooks/${webhook.body.id}`)).status).toBe(200);
  });
});

describe('/openapi.json: security, statuses and formats', () => {
  let doc: Document;
  beforeAll(async () => {
    doc = await documentOf(createTestSandbox());
  });

  it('asks no token of POST /auth/token and a bearer token of every other operation', () => {
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const { path, method, op } of operationsOf(doc)) {
      if (path === '/v1/auth/token') expect(op.security).toEqual([]);
      else expect(op.security, `${method} ${path}`).toBeUndefined();
    }
  });

  it("declares 403 everywhere, 413 on every operation that reads a body, 409 on every write past verification, the fault lab's statuses past authentication; 404 only for a path id", () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const statuses = Object.keys(op.responses);
      expect(statuses, `${method} ${path}`).toContain('403');
      expect(statuses.includes('413'), `${method} ${path} 413`).toBe(method !== 'GET');
      for (const status of ['429', '502', '503', '504']) expect(statuses.includes(status), `${method} ${path} ${status}`).toBe(path !== '/v1/auth/token');
      if (method !== 'GET' && !path.startsWith('/v1/auth/')) expect(statuses, `${method} ${path}`).toContain('409');
      expect(statuses.includes('404'), `${method} ${path} 404`).toBe(path.includes('{'));
      expect(statuses, `${method} ${path}`).not.toContain('422');
    }
  });

  it('gives the base64 and URL fields their formats', () => {
    const body = (path: string, method: string) =>
      (doc.paths[path]![method]!.requestBody!.content['application/json']!.schema as { properties: Record<string, { format?: string }> }).properties;
    expect(body('/auth/signing', 'put').signingKey!.format).toBe('byte');
    expect(body('/webhooks', 'put').callbackUrl!.format).toBe('uri');
    expect((doc.components.schemas.VerificationKey!.properties as Record<string, { format?: string }>).key!.format).toBe('byte');
  });

  it('takes the service\'s decimals with trailing zeros ("10.0"), while the sandbox writes them without', async () => {
    const pattern = new RegExp(doc.components.schemas.Decimal!.pattern as string);
    expect(['10.0', '10', '0.50', '1.25'].filter((v) => !pattern.test(v))).toEqual([]);
    expect(['', '1.', '.5', '-1', '1e3', ' 1'].filter((v) => pattern.test(v))).toEqual([]);
    const sb = createTestSandbox();
    const card = await issuedCard(sb, { currencies: ['EUR'] });
    const held = await payments(sb).authorise(card.cardId, { amount: '10.50', currency: 'EUR', capture: false });
    expect(held.body).toMatchObject({ amount: '10.5', merchantAmount: '10.5' });
  });
});

describe("/openapi.json beside the service's document", () => {
  it('renames nothing a client generated from that document names, and adds to its operations only the statuses docs/api.md lists', async () => {
    const reference = JSON.parse(readFileSync(REFERENCE_STRUCTURE, 'utf8')) as Document;
    const doc = await documentOf(createTestSandbox());
    const added = new Set<string>();
    for (const [path, item] of Object.entries(reference.paths))
      for (const [method, op] of Object.entries(item)) {
        const ours = doc.paths[path]?.[method];
        expect(ours?.operationId, `${method} ${path}`).toBe(op.operationId);
        const theirs = Object.keys(op.responses);
        expect(Object.keys(ours!.responses), `${method} ${path}`).toEqual(expect.arrayContaining(theirs));
        for (const status of Object.keys(ours!.responses)) if (!theirs.includes(status)) added.add(status);
      }
    expect([...added].sort()).toEqual(['403', '409', '413', '429', '502', '503', '504']);
    for (const [key, item] of Object.entries(reference.webhooks)) expect(doc.webhooks[key]!.post!.operationId, key).toBe(item.post!.operationId);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(Object.keys(reference.components.schemas)));
  });
});

describe('/openapi.json: the webhooks', () => {
  const receiverOf = startTestReceiver();
  const agents = createAgents(2);
  afterAll(async () => {
    agents.destroy();
    await (await receiverOf).close();
  });

  it("has one entry per event type, and the service's document's own for any of them: each body as delivered, and the headers each delivery carries", async () => {
    const sb = createTestSandbox();
    const doc = await documentOf(sb);
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_TYPES, '{callbackUrl}']);
    // The service's own entry has no operationId, and neither has this one: a generator names its types as it does from that document.
    expect(doc.webhooks['{callbackUrl}']!.post).not.toHaveProperty('operationId');
    expect(WEBHOOK_TYPES.map((type) => doc.webhooks[type]!.post!.operationId)).toEqual(WEBHOOK_TYPES.map((type) => `on${PASCAL_ENTITY(type)}Updated`));
    const any = doc.webhooks['{callbackUrl}']!.post!.requestBody!.content['application/json']!.schema.$ref!;
    expect(doc.components.schemas[any.split('/').at(-1)!]!.anyOf).toEqual(
      WEBHOOK_TYPES.map((type) => ({ $ref: `#/components/schemas/${PASCAL_ENTITY(type)}Update` })),
    );

    // One event of each type, as the sandbox writes and sends them.
    const p = payments(sb);
    const { cardId } = await issuedCard(sb, { currencies: ['EUR'] });
    await p.authorise(cardId, { amount: '5', currency: 'EUR' });
    await p.advance(SECOND);
    const rows = sb.deps.store.sqlite.prepare('SELECT type, body FROM events ORDER BY seq').all() as { type: string; body: string }[];
    const receiver = await receiverOf;
    const { privateKey, publicKey } = generateP384();

    for (const type of WEBHOOK_TYPES) {
      const op = doc.webhooks[type]!.post!;
      expect(op.security).toEqual([]);
      const ref = op.requestBody!.content['application/json']!.schema.$ref!;
      const schema = doc.components.schemas[ref.split('/').at(-1)!]!;
      expect(ref).toBe(`#/components/schemas/${PASCAL_ENTITY(type)}Update`);
      expect(schema.allOf).toContainEqual({ $ref: `#/components/schemas/${PASCAL_ENTITY(type)}` });

      const row = rows.find((r) => r.type === type);
      expect(row, type).toBeDefined();
      expect(WebhookEvents[type].safeParse(JSON.parse(row!.body)).success, type).toBe(true);

      await sendAttempt({
        callbackUrl: `${receiver.url}/hooks`,
        body: Buffer.from(row!.body),
        eventId: randomUUID(),
        attempt: 1,
        signer: { keyId: keyFingerprintId(publicKey), privateKey },
        created: Math.floor(Date.now() / 1000),
        agents,
      });
      const sent = receiver.requests.at(-1)!.headers;
      for (const [name, header] of headersOf(doc, op)) {
        expect(header.required, `${type} ${name}`).toBe(true);
        expect(sent, `${type} ${name}`).toHaveProperty(name.toLowerCase());
      }
      expect([...headersOf(doc, op).keys()]).toEqual(
        expect.arrayContaining(['Signature', 'Signature-Input', 'Content-Digest', 'Sandbox-Event-Id', 'Sandbox-Delivery-Attempt']),
      );
    }
  });
});
