// Generates the clients' types and operation tables from the sandbox's own OpenAPI documents
// (docs/companion.md: The API client): src/client/api.generated.ts from GET /openapi.json, and
// src/client/control.generated.ts from GET /_sandbox/openapi.json. The sources are bundled with
// esbuild, the app is built in memory and each document is rendered exactly as GET serves it, then
// every operation and component schema becomes TypeScript. `npm run build` and `npm run typecheck`
// run it first; the output is not kept in git, so the clients can never disagree with the routes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// Inside the package, so that the bundle finds node_modules and the package root (fixtures/) as the
// sources do; one file per process, as two builds may share node_modules.
const RENDER = join(ROOT, `node_modules/.cache/card-sandbox/openapi-render-${process.pid}.mjs`);

const ENTRY = `
import { buildDeps } from './src/deps.ts';
import { createApp } from './src/app.ts';
import { defaultConfig } from './src/config/index.ts';
import { memoryLog } from './src/kernel/log.ts';
export async function render() {
  const deps = buildDeps(defaultConfig(), { log: memoryLog() });
  try {
    const app = createApp(deps);
    return { api: await (await app.request('/openapi.json')).json(), control: await (await app.request('/_sandbox/openapi.json')).json() };
  } finally {
    deps.store.close();
  }
}`;

/** The documents as GET serves them. */
async function renderDocuments() {
  mkdirSync(dirname(RENDER), { recursive: true });
  await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'openapi-render.ts' },
    outfile: RENDER,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  });
  try {
    const { render } = await import(pathToFileURL(RENDER).href);
    return await render();
  } finally {
    rmSync(RENDER, { force: true });
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const refName = (ref) => ref.replace('#/components/schemas/', '');

/** A JSDoc block from a schema's description and format, or nothing. */
function doc(schema, pad) {
  const parts = [
    schema.description,
    schema.format && `format: ${schema.format}`,
    schema.default !== undefined && `default: ${JSON.stringify(schema.default)}`,
  ].filter(Boolean);
  if (parts.length === 0) return '';
  return `${pad}/** ${parts.join('; ').replaceAll('*/', '*\\/')} */\n`;
}

/**
 * Which of an object's fields it must have beyond its `required`, as a union of the alternatives:
 * `oneOf`/`anyOf` branches that only require fields (clock advance: `by` or `to`), or, for a
 * closed object, `minProperties: 1` (at least one of its fields). Undefined when there is no such rule.
 */
function alternatives(schema) {
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches?.every((b) => b.required && Object.keys(b).every((k) => k === 'required' || k === 'properties'))) return branches.map((b) => b.required);
  if (schema.minProperties === 1 && schema.additionalProperties === false && schema.properties) return Object.keys(schema.properties).map((k) => [k]);
  return undefined;
}

/** JSON Schema (OpenAPI 3.1) to a TypeScript type. */
function type(schema, pad = '') {
  if (schema === undefined || schema === true || Object.keys(schema).length === 0) return 'unknown';
  if (schema.$ref) return refName(schema.$ref);
  const either = schema.properties && alternatives(schema);
  if (either) {
    const base = object(schema, pad);
    const pick = (keys) => `{ ${keys.map((k) => `${key(k)}: ${type(schema.properties[k], pad)}`).join('; ')} }`;
    return `${base} & (${either.map(pick).join(' | ')})`;
  }
  if (schema.allOf) {
    // Members that only constrain (`if`/`then`, an amount's digits by currency) add no type.
    const typed = schema.allOf.filter((s) => !(s.if || s.then) || s.$ref || s.type || s.properties);
    const parts = [...(schema.properties ? [object(schema, pad)] : []), ...typed.map((s) => wrap(type(s, pad)))];
    return parts.length ? parts.join(' & ') : 'unknown';
  }
  if (schema.anyOf ?? schema.oneOf) return (schema.anyOf ?? schema.oneOf).map((s) => wrap(type(s, pad))).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((t) => type({ ...schema, type: t }, pad)).join(' | ');
  const nullable = schema.nullable ? ' | null' : '';
  switch (schema.type) {
    case 'string':
      return `string${nullable}`;
    case 'integer':
    case 'number':
      return `number${nullable}`;
    case 'boolean':
      return `boolean${nullable}`;
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(type(schema.items, pad))}[]${nullable}`;
    case 'object':
    default:
      return `${object(schema, pad)}${nullable}`;
  }
}

const wrap = (t) => (/[|&]/.test(t) && !t.startsWith('{') ? `(${t})` : t);

function object(schema, pad) {
  const inner = `${pad}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${doc(property, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${type(property, inner)};\n`,
  );
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) lines.push(`${inner}[key: string]: ${extra === true ? 'unknown' : type(extra, inner)};\n`);
  if (lines.length === 0) return 'Record<string, unknown>';
  return `{\n${lines.join('')}${pad}}`;
}

const jsonSchemaOf = (content) => content?.['application/json']?.schema;
const streamSchemaOf = (content) => content?.['text/event-stream']?.schema;

/** One operation: its arguments (path parameters in path order, the body, the query) and its result. */
function operation(path, method, op) {
  // Parameters given as references are the ones every operation shares (the signature headers, the
  // control plane's programme), which the clients send from their options, not a call's arguments.
  const parameters = (op.parameters ?? []).filter((p) => !p.$ref);
  const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const query = parameters.filter((p) => p.in === 'query');
  const args = pathParams.map((name) => `${name}: ${type(parameters.find((p) => p.name === name && p.in === 'path')?.schema ?? { type: 'string' }, '    ')}`);
  // A body sent as bytes (a snapshot file) takes them as they are.
  const bytes = Boolean(op.requestBody?.content?.['application/octet-stream']);
  const body = jsonSchemaOf(op.requestBody?.content) ?? (bytes ? { format: 'binary' } : undefined);
  if (body) args.push(`body${op.requestBody.required ? '' : '?'}: ${bytes ? 'Uint8Array' : type(body, '    ')}`);
  if (query.length > 0) {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }])),
      required: query.filter((p) => p.required).map((p) => p.name),
    };
    args.push(`query${query.some((p) => p.required) ? '' : '?'}: ${type(schema, '    ')}`);
  }
  const [status, response] = Object.entries(op.responses).find(([code]) => /^2/.test(code));
  const stream = streamSchemaOf(response.content);
  const result = jsonSchemaOf(response.content) ?? stream;
  return {
    name: op.operationId,
    summary: `${method.toUpperCase()} ${path}${op.summary ? ` — ${op.summary}` : ''}`,
    args: `[${args.join(', ')}]`,
    result: result ? type(result, '    ') : 'void',
    table: {
      method: method.toUpperCase(),
      path,
      params: pathParams,
      body: Boolean(body),
      query: query.length > 0,
      status: Number(status),
      ...(stream && { stream: true }),
    },
  };
}

function render(document, source) {
  const out = [`// Generated by scripts/api-types.mjs from the sandbox's own GET ${source}. Do not edit:`, '// `npm run build` writes it again.', ''];
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    out.push(`${doc(schema, '')}export type ${name} = ${type(schema)};`, '');
  }
  const operations = [];
  // The clients send to the origin they are given: the path of `servers` (/v1) goes before each path.
  const base = document.servers ? new URL(document.servers[0].url).pathname.replace(/\/$/, '') : '';
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      operations.push(operation(`${base}${path}`, method, op));
    }
  }
  // One entry per event type; `{callbackUrl}`, any of them, is the service's document's own.
  const webhooks = Object.entries(document.webhooks ?? {}).filter(([name]) => !name.startsWith('{'));
  if (webhooks.length > 0) {
    out.push("/** Each webhook type and the body its deliveries carry (the document's webhooks). */", 'export interface WebhookEvents {');
    for (const [name, item] of webhooks) out.push(`  ${JSON.stringify(name)}: ${type(jsonSchemaOf(item.post.requestBody.content))};`);
    out.push('}', '');
  }
  out.push('/** Every operation: its arguments and what it resolves to (for a stream, each message). */', 'export interface Operations {');
  for (const op of operations) out.push(`  /** ${op.summary} */`, `  ${op.name}: {`, `    args: ${op.args};`, `    result: ${op.result};`, '  };');
  out.push('}', '');
  out.push('/** How each operation is sent. */', 'export const OPERATIONS = {');
  for (const op of operations)
    out.push(
      `  ${op.name}: { ${Object.entries(op.table)
        .map(([k, v]) => `${k}: ${JSON.stringify(v).replaceAll(',', ', ')}`)
        .join(', ')} },`,
    );
  out.push('} as const;', '');
  return out.join('\n');
}

const { api, control } = await renderDocuments();
writeFileSync(join(ROOT, 'src/client/api.generated.ts'), render(api, '/openapi.json'));
writeFileSync(join(ROOT, 'src/client/control.generated.ts'), render(control, '/_sandbox/openapi.json'));
