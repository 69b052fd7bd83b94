/**
 * What the Postman collection reads from an OpenAPI document the sandbox serves (/openapi.json,
 * /_sandbox/openapi.json): its operations with their path, tag, query, body and success answer, a
 * sample body made from the request schema, and the fields the success schema requires. Only what
 * a collection needs; the documents themselves are the one definition.
 */

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  minimum?: number;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
}

interface Content {
  [type: string]: { schema?: Schema } | undefined;
}

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  description?: string;
}

interface OperationObject {
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content } | undefined>;
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema>; parameters?: Record<string, Parameter> };
}

export interface Operation {
  id: string;
  method: string;
  /** The path as sent, with the server's path (`/v1`) in front: `/v1/customers/{customerId}`. */
  path: string;
  tag: string;
  query: { name: string; required: boolean; description: string }[];
  /** The JSON request body's schema, if the operation takes one. */
  body?: Schema;
  /** The first 2xx status, and its JSON schema when it has one. */
  success: { status: number; schema?: Schema };
  statuses: number[];
  /** It answers with a stream (Server-Sent Events) or takes a body that is not JSON: no request in a collection can run it. */
  unsendable: boolean;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function resolve<T extends { $ref?: string }>(doc: OpenApiDocument, value: T): T {
  let current = value;
  for (let hops = 0; current.$ref !== undefined && hops < 32; hops++) {
    const [, , section, name] = current.$ref.split('/');
    const target = (doc.components as Record<string, Record<string, unknown>> | undefined)?.[section!]?.[name!];
    if (target === undefined) break;
    current = target as T;
  }
  return current;
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const prefix = doc.servers?.[0] ? new URL(doc.servers[0].url, 'http://x').pathname.replace(/\/+$/, '') : '';
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.operationId === undefined) continue;
      const statuses = Object.keys(op.responses ?? {})
        .map(Number)
        .filter(Number.isInteger);
      const status = statuses.find((s) => s >= 200 && s < 300) ?? 200;
      const answer = op.responses?.[String(status)]?.content;
      const params = (op.parameters ?? []).map((p) => resolve(doc, p));
      const bodyContent = op.requestBody?.content;
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path: `${prefix}${path}`,
        tag: op.tags?.[0] ?? 'Other',
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: p.required === true, description: p.description ?? '' })),
        ...(bodyContent?.['application/json']?.schema && { body: bodyContent['application/json'].schema }),
        success: { status, ...(answer?.['application/json']?.schema && { schema: answer['application/json'].schema }) },
        statuses,
        unsendable: answer?.['text/event-stream'] !== undefined || (bodyContent !== undefined && bodyContent['application/json'] === undefined),
      });
    }
  }
  return operations;
}

/** One schema made of its `allOf` parts, references followed. */
function flatten(doc: OpenApiDocument, schema: Schema): Schema {
  const s = resolve(doc, schema);
  if (!s.allOf) return s;
  const parts = s.allOf.map((part) => flatten(doc, part));
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

/** A value the schema accepts, made from its examples and defaults: the starting point of a request's body. */
export function sample(doc: OpenApiDocument, schema: Schema, depth = 0): unknown {
  const s = flatten(doc, schema);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined && !(Array.isArray(s.default) && s.default.length === 0)) return s.default;
  if (s.enum?.length) return s.enum[0];
  const alternative = s.oneOf?.[0] ?? s.anyOf?.[0];
  if (alternative) return sample(doc, alternative, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 6) return {};
    const names = s.required?.length ? s.required : Object.keys(s.properties ?? {}).slice(0, 3);
    return Object.fromEntries(names.filter((n) => s.properties?.[n]).map((n) => [n, sample(doc, s.properties![n]!, depth + 1)]));
  }
  if (type === 'array') return depth > 6 || !s.items ? [] : Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(doc, s.items!, depth + 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (s.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (s.format === 'date-time') return '2030-01-01T00:00:00Z';
  if (s.format === 'decimal') return '10.00';
  return 'string';
}

/** What the success answer must hold: an object's required fields, or, for a list, each item's. */
export function requiredFields(doc: OpenApiDocument, schema: Schema | undefined): { list: boolean; fields: string[] } {
  if (schema === undefined) return { list: false, fields: [] };
  const s = flatten(doc, schema);
  if (s.type === 'array' && s.items) return { list: true, fields: flatten(doc, s.items).required ?? [] };
  return { list: false, fields: s.required ?? [] };
}
