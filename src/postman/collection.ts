/**
 * The Postman collection (v2.1) and environment for a sandbox (docs/postman.md): every `/v1`
 * operation of its /openapi.json in a folder per tag, its controls (/_sandbox/openapi.json) in a
 * folder of their own, and the journey (journey.ts) first, a story run top to bottom. Each request
 * tests its status and the fields its answer's schema requires; the collection's scripts
 * (scripts.ts) authenticate and sign. Made from the documents the sandbox serves, so it follows them.
 */
import { JOURNEY, type JourneyStep } from './journey.js';
import { operationsOf, requiredFields, sample, type OpenApiDocument, type Operation } from './openapi.js';
import { PRE_REQUEST, TEST } from './scripts.js';

export const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
export const JOURNEY_FOLDER = 'Journey';
export const CONTROLS_FOLDER = 'Sandbox controls';

export interface PostmanItem {
  name: string;
  description?: string;
  item?: PostmanItem[];
  request?: {
    method: string;
    header: { key: string; value: string }[];
    url: { raw: string; host: string[]; path: string[]; query?: { key: string; value: string; disabled?: boolean; description?: string }[] };
    body?: { mode: 'raw'; raw: string; options: { raw: { language: 'json' } } };
  };
  event?: { listen: 'prerequest' | 'test'; script: { type: 'text/javascript'; exec: string[] } }[];
}

export interface PostmanCollection {
  info: { name: string; description: string; schema: string };
  event: NonNullable<PostmanItem['event']>;
  variable: { key: string; value: string }[];
  item: PostmanItem[];
}

/** `createCustomerAccount` → `Create customer account`. */
const title = (id: string) => {
  const words = id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The variable a path parameter is read from: its own name, or for a bare `{id}` the resource's (`/programmes/{id}` → programmeId). */
function variableOf(path: string, name: string): string {
  if (name !== 'id') return name;
  const before = path.split(`/{${name}}`)[0]!.split('/').pop()!;
  return `${before.replace(/s$/, '')}Id`;
}

const script = (listen: 'prerequest' | 'test', source: string) => ({ listen, script: { type: 'text/javascript' as const, exec: source.split('\n') } });

/** The tests every request has: its status, and on success the fields its answer's schema requires. */
function shapeTests(doc: OpenApiDocument, op: Operation, expected: number | undefined): string[] {
  const lines =
    expected === undefined
      ? [`pm.test('answers a status the reference documents', function () { pm.expect(${JSON.stringify(op.statuses)}).to.include(pm.response.code); });`]
      : [`pm.test('answers ${expected}', function () { pm.response.to.have.status(${expected}); });`];
  const { list, fields } = requiredFields(doc, op.success.schema);
  if (fields.length === 0 && !list) return lines;
  const check = `${JSON.stringify(fields)}.forEach(function (field) { pm.expect(item, field).to.have.property(field); });`;
  return [
    ...lines,
    `if (pm.response.code === ${op.success.status}) pm.test('${list ? 'a list whose items have' : 'has'} ${fields.join(', ') || 'the documented shape'}', function () {`,
    '  var body = pm.response.json();',
    list ? `  pm.expect(body).to.be.an('array'); body.slice(0, 5).forEach(function (item) { ${check} });` : `  var item = body; ${check}`,
    '});',
  ];
}

interface RequestOptions {
  op: Operation;
  doc: OpenApiDocument;
  name: string;
  description?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  expected?: number;
  tests?: string[];
}

function request(o: RequestOptions): PostmanItem {
  const { op } = o;
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => `{{${o.params?.[name] ?? variableOf(op.path, name)}}}`);
  const query = op.query.map((q) => ({
    key: q.name,
    value: o.query?.[q.name] ?? '',
    ...(o.query?.[q.name] === undefined && { disabled: true }),
    ...(q.description && { description: q.description }),
  }));
  const enabled = query.filter((q) => !q.disabled);
  const raw = `{{baseUrl}}${path}${enabled.length ? `?${enabled.map((q) => `${q.key}=${q.value}`).join('&')}` : ''}`;
  const body = o.body ?? (op.body && sample(o.doc, op.body));
  const tests = [...shapeTests(o.doc, op, o.expected), ...(o.tests ?? [])];
  return {
    name: o.name,
    ...(o.description && { description: o.description }),
    request: {
      method: op.method,
      header: body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }],
      url: { raw, host: ['{{baseUrl}}'], path: path.split('/').filter(Boolean), ...(query.length && { query }) },
      ...(body !== undefined && { body: { mode: 'raw' as const, raw: JSON.stringify(body, null, 2), options: { raw: { language: 'json' as const } } } }),
    },
    event: [script('test', tests.join('\n'))],
  };
}

/** The operations by tag, in the order the document first names each tag. */
function folders(doc: OpenApiDocument, operations: Operation[]): PostmanItem[] {
  const byTag = new Map<string, Operation[]>();
  for (const op of operations) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  return [...byTag].map(([tag, ops]) => ({
    name: tag,
    item: ops.map((op) => request({ op, doc, name: title(op.id), description: `${op.method} ${op.path}` })),
  }));
}

function journeyStep(
  step: JourneyStep,
  api: Map<string, Operation>,
  control: Map<string, Operation>,
  docs: { api: OpenApiDocument; control: OpenApiDocument },
) {
  const op = (step.plane === 'control' ? control : api).get(step.operation);
  if (op === undefined) throw new Error(`the journey's step "${step.name}" names ${step.operation}, which the sandbox's ${step.plane ?? 'api'} document lacks`);
  const keeps = Object.entries(step.keep ?? {}).map(([name, expression]) => `pm.collectionVariables.set('${name}', ${expression});`);
  const checks = (step.checks ?? []).map(
    ([what, expression]) =>
      `pm.test(${JSON.stringify(what)}, function () { var body = pm.response.json(); pm.expect(${expression}, ${JSON.stringify(expression)}).to.equal(true); });`,
  );
  return request({
    op,
    doc: step.plane === 'control' ? docs.control : docs.api,
    name: step.name,
    description: `${step.does}\n\n${op.method} ${op.path}`,
    expected: op.success.status,
    tests: [...checks, ...(keeps.length ? [`if (pm.response.code < 300) { var body = pm.response.json(); ${keeps.join(' ')} }`] : [])],
    ...(step.params && { params: step.params }),
    ...(step.query && { query: step.query }),
    ...(step.body !== undefined && { body: step.body }),
  });
}

/** The variables the journey keeps, declared on the collection so the reference requests find them too. */
const journeyVariables = () => [...new Set(JOURNEY.flatMap((s) => Object.keys(s.keep ?? {})))];

export function postmanCollection(docs: { api: OpenApiDocument; control: OpenApiDocument }, name = 'card-sandbox'): PostmanCollection {
  const apiOps = operationsOf(docs.api);
  const controlOps = operationsOf(docs.control).filter((op) => !op.unsendable);
  const byId = (ops: Operation[]) => new Map(ops.map((op) => [op.id, op]));
  const journey = JOURNEY.map((step) => journeyStep(step, byId(apiOps), byId(controlOps), docs));
  return {
    info: {
      name,
      description:
        'The card-issuance API of a card-sandbox, made by `card-sandbox postman`. Run the Journey folder top to bottom; the other folders hold every operation. ' +
        'The collection signs each request itself (RFC 9421, ecdsa-p384-sha384), offline: see docs/postman.md.',
      schema: COLLECTION_SCHEMA,
    },
    event: [script('prerequest', PRE_REQUEST), script('test', TEST)],
    variable: ['token', 'tokenExpiresAt', 'signerSelfTest', ...journeyVariables()].map((key) => ({ key, value: '' })),
    item: [
      { name: JOURNEY_FOLDER, description: 'customer → account → card → authorise → capture → refund, a story run top to bottom.', item: journey },
      ...folders(docs.api, apiOps),
      { name: CONTROLS_FOLDER, description: 'The control plane (/_sandbox): not part of the hosted service.', item: folders(docs.control, controlOps) },
    ],
  };
}

export interface EnvironmentValues {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  signingKeyId: string;
  signingPrivateKey: string;
  programme: string;
  adminToken: string;
}

const SECRET: ReadonlySet<keyof EnvironmentValues> = new Set(['apiSecret', 'signingPrivateKey', 'adminToken']);

export function postmanEnvironment(values: EnvironmentValues, name = 'card-sandbox') {
  return {
    name,
    values: (Object.keys(values) as (keyof EnvironmentValues)[]).map((key) => ({
      key,
      value: values[key],
      type: SECRET.has(key) ? 'secret' : 'default',
      enabled: true,
    })),
    _postman_variable_scope: 'environment',
  };
}
