import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { COLLECTION_SCHEMA, CONTROLS_FOLDER, JOURNEY_FOLDER, postmanCollection, postmanEnvironment, type PostmanItem } from './collection.js';
import { JOURNEY } from './journey.js';
import { operationsOf, type OpenApiDocument } from './openapi.js';
import { PRE_REQUEST, TEST } from './scripts.js';

const sb = createTestSandbox();
const documentAt = async (path: string) => (await sb.json('GET', path, { token: false })).body as OpenApiDocument;
const docs = { api: await documentAt('/openapi.json'), control: await documentAt('/_sandbox/openapi.json') };
const collection = postmanCollection(docs);
const folder = (name: string) => collection.item.find((f) => f.name === name)!;
const requests = (items: PostmanItem[]): PostmanItem[] => items.flatMap((i) => (i.item ? requests(i.item) : [i]));
const line = (item: PostmanItem) => `${item.request!.method} ${item.request!.url.raw.replace(/\?.*/, '')}`;

describe('the Postman collection made from the sandbox’s own documents', () => {
  it('is a v2.1 collection: the journey first, a folder per tag of the reference, the controls last', () => {
    expect(collection.info.schema).toBe(COLLECTION_SCHEMA);
    const tags = [...new Set(operationsOf(docs.api).map((op) => op.tag))];
    expect(collection.item.map((f) => f.name)).toEqual([JOURNEY_FOLDER, ...tags, CONTROLS_FOLDER]);
    expect(tags).toEqual(expect.arrayContaining(['Authentication', 'Customers', 'Accounts', 'Cards', 'Transactions', 'Webhooks', 'Simulator']));
  });

  it('holds every /v1 operation once, in its tag’s folder, its path parameters read from variables', () => {
    const ops = operationsOf(docs.api);
    const reference = collection.item.filter((f) => f.name !== JOURNEY_FOLDER && f.name !== CONTROLS_FOLDER);
    expect(requests(reference)).toHaveLength(ops.length);
    for (const op of ops) expect(folder(op.tag).item!.map(line)).toContain(`${op.method} {{baseUrl}}${op.path.replace(/\{(\w+)\}/g, '{{$1}}')}`);
    const create = folder('Customers').item!.find((i) => i.name === 'Create customer')!;
    expect(JSON.parse(create.request!.body!.raw)).toEqual({ chainId: expect.stringMatching(/^eip155:\d+:0x[0-9a-fA-F]{40}$/), externalId: 'string' });
    expect(create.request!.header).toEqual([{ key: 'Content-Type', value: 'application/json' }]);
  });

  it('holds the controls that a request can run, with no stream, each {id} read from its resource’s variable', () => {
    const controls = requests(folder(CONTROLS_FOLDER).item!);
    const sendable = operationsOf(docs.control).filter((op) => !op.unsendable);
    expect(controls).toHaveLength(sendable.length);
    expect(controls.map(line)).not.toContain('GET {{baseUrl}}/_sandbox/events/stream');
    expect(controls.map(line)).toContain('DELETE {{baseUrl}}/_sandbox/programmes/{{programmeId}}');
    expect(controls.map(line)).toContain('POST {{baseUrl}}/_sandbox/snapshots/{{snapshotId}}/restore');
  });

  it('tests each request’s status and the fields its answer’s schema requires', () => {
    const getCard = folder('Cards').item!.find((i) => i.name === 'Get card')!;
    const test = getCard.event!.find((e) => e.listen === 'test')!.script.exec.join('\n');
    expect(test).toContain('pm.expect([200,400,401,403,404,429,500,502,503,504]).to.include(pm.response.code)');
    expect(test).toContain('["id","accountId","type","status","createdAt","updatedAt"]');
    const list = folder('Cards')
      .item!.find((i) => i.name === 'Get cards')!
      .event![0]!.script.exec.join('\n');
    expect(list).toContain("pm.expect(body).to.be.an('array')");
  });

  it('runs the journey as a story: every step, with its exact status and the ids it keeps for the next', () => {
    const journey = folder(JOURNEY_FOLDER).item!;
    expect(journey.map((i) => i.name)).toEqual(JOURNEY.map((s) => s.name));
    expect(journey.length).toBeGreaterThanOrEqual(20);
    const names = journey.map((i) => i.name);
    const order = [
      'Create a customer',
      'Seed a verified customer with a deployed account',
      'Create a virtual card',
      'Authorise a payment',
      'Capture it',
      'Refund part of it',
    ];
    expect(order.map((n) => names.indexOf(n))).toEqual([...order.map((n) => names.indexOf(n))].sort((a, b) => a - b));
    const card = journey.find((i) => i.name === 'Create a virtual card')!;
    expect(line(card)).toBe('POST {{baseUrl}}/v1/accounts/{{accountId}}/cards');
    const test = card.event![0]!.script.exec.join('\n');
    expect(test).toContain("pm.test('answers 201'");
    expect(test).toContain("pm.collectionVariables.set('cardId', body.id);");
    // Each variable a step reads was kept by a step before it, or is the environment's.
    const kept = new Set(['baseUrl', 'apiKey', 'apiSecret', '$guid']);
    for (const item of journey) {
      const text = `${item.request!.url.raw} ${item.request!.body?.raw ?? ''}`;
      for (const [, name] of text.matchAll(/\{\{([^}]+)\}\}/g)) expect(kept, `${item.name} reads {{${name}}}`).toContain(name);
      for (const [, name] of item.event![0]!.script.exec.join('\n').matchAll(/collectionVariables\.set\('(\w+)'/g)) kept.add(name!);
    }
  });

  it('refuses a journey step whose operation the sandbox does not serve', () => {
    const { control } = docs;
    const paths = Object.fromEntries(Object.entries(control.paths).filter(([path]) => path !== '/_sandbox/seed'));
    expect(() => postmanCollection({ api: docs.api, control: { ...control, paths } })).toThrow(/names seedWorld, which the sandbox's control document lacks/);
  });

  it('signs offline: the scripts fetch nothing but the token, from the request’s own origin', () => {
    expect(collection.event.map((e) => e.listen)).toEqual(['prerequest', 'test']);
    expect(collection.event[0]!.script.exec.join('\n')).toBe(PRE_REQUEST);
    expect(collection.event[1]!.script.exec.join('\n')).toBe(TEST);
    expect(PRE_REQUEST.match(/pm\.sendRequest/g)).toHaveLength(1);
    expect(PRE_REQUEST).toContain("url: scheme + '://' + parts[2] + '/v1/auth/token'");
    expect(`${PRE_REQUEST}${TEST}`).not.toMatch(/https?:\/\/[a-z]/i);
    expect(PRE_REQUEST.match(/require\('([^']+)'\)/g)).toEqual(["require('crypto-js')"]);
  });
});

describe('the environment', () => {
  it('marks the secrets secret', () => {
    const env = postmanEnvironment({
      baseUrl: 'http://127.0.0.1:4242',
      apiKey: 'k',
      apiSecret: 's',
      signingKeyId: 'id',
      signingPrivateKey: 'pem',
      programme: 'default',
      adminToken: '',
    });
    expect(env._postman_variable_scope).toBe('environment');
    expect(Object.fromEntries(env.values.map((v) => [v.key, v.type]))).toEqual({
      baseUrl: 'default',
      apiKey: 'default',
      apiSecret: 'secret',
      signingKeyId: 'default',
      signingPrivateKey: 'secret',
      programme: 'default',
      adminToken: 'secret',
    });
  });
});
