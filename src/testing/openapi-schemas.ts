/**
 * Bodies checked against an OpenAPI 3.1 document's own JSON Schemas — the sandbox's /openapi.json
 * or /_sandbox/openapi.json, which mirror the service's document, or the service's document itself
 * (`referenceSchemas()`) — with Ajv's JSON Schema 2020-12 validator: what an integrator's generated
 * client or validator would check, and a second opinion beside the zod shapes the answers are made
 * from. Not shipped.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  components: { schemas: Record<string, unknown> };
}
type Schema = { properties?: Record<string, Schema>; enum?: string[]; $ref?: string; discriminator?: { mapping?: Record<string, string> } };

/**
 * The service's own document, as the checked-in structure `scripts/reference-structure.mjs` derives
 * from it (its schemas without its prose): the tests never read the document itself. Its paths are
 * under `/v1`, the path of the servers it names (which the structure leaves out).
 */
export const REFERENCE_STRUCTURE = new URL('./fixtures/reference-structure.json', import.meta.url);
export const referenceSchemas = () => openApiSchemas(JSON.parse(readFileSync(REFERENCE_STRUCTURE, 'utf8')) as Document, '/v1');

/** `base`: where the document's paths are, when it names no server (its first server's path otherwise, the service's `…/v1`). */
export function openApiSchemas(document: Document, base = document.servers?.[0] ? new URL(document.servers[0].url).pathname.replace(/\/$/, '') : '') {
  const resolved = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref === undefined ? schema : resolved(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] as Schema);
  // A path as sent matched to the document's own: the one written so, else the template with the fewest parameters that matches.
  const templates = Object.keys(document.paths)
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: template.split('{').length }))
    .sort((a, b) => a.params - b.params);
  const templateOf = (path: string) => (path in document.paths ? path : templates.find((t) => t.pattern.test(path))?.template);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The service's own format: a decimal number as a string.
  ajv.addFormat('decimal', /^\d+(\.\d+)?$/);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  const rebased = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
  const errorsOf = (schema: unknown, value: unknown, what: string): string[] => {
    const validate = ajv.compile(rebased(schema));
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${what}${e.instancePath} ${e.message}`);
  };

  return {
    /** Why `value` is not the component schema `name`; empty when it is. */
    component: (name: string, value: unknown) => errorsOf({ $ref: `#/components/schemas/${name}` }, value, name),
    /**
     * Why `value` is not the answer `method path` declares for `status`; `path` with the server's
     * own (`/v1`), as the document writes it (`/v1/cards/{cardId}`) or as sent (`/v1/cards/4f2b…`).
     */
    answer(method: string, path: string, status: number, value: unknown): string[] {
      const schema =
        document.paths[templateOf(path.slice(base.length)) ?? '']?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
      if (!schema) return [`${method} ${path} declares no JSON answer for ${status}`];
      return errorsOf(schema, value, `${method} ${path} ${status}`);
    },
    /** Why `value` is not the JSON body `method path` takes; `path` as the document writes it. */
    request(method: string, path: string, value: unknown): string[] {
      const body = (document.paths[path]?.[method.toLowerCase()] as { requestBody?: { content: Record<string, { schema: unknown }> } } | undefined)
        ?.requestBody;
      const schema = body?.content['application/json']?.schema;
      if (!schema) return [`${method} ${path} takes no JSON body`];
      return errorsOf(schema, value, `${method} ${path} body`);
    },
    /**
     * Why `value` is not the body the document's webhooks section gives deliveries of `type`: the
     * webhook of that name, or the one callback whose body's discriminator maps `type` to a schema
     * (the service's document: one `{callbackUrl}` taking a `WebhookEvent`).
     */
    webhook(type: string, value: unknown): string[] {
      const named = document.webhooks?.[type];
      const callbacks = Object.values(document.webhooks ?? {});
      const body = (named ?? (callbacks.length === 1 ? callbacks[0] : undefined))?.post.requestBody.content['application/json']?.schema as Schema | undefined;
      const mapped = named ? undefined : resolved(body)?.discriminator?.mapping?.[type];
      const schema = named ? body : mapped && { $ref: mapped };
      if (!schema) return [`no webhook ${type}`];
      return errorsOf(schema, value, type);
    },
    /** The values of an enum property of a component schema (`Transaction`, `status`), inline or a component of its own. */
    enumOf(name: string, property: string): string[] {
      return resolved(resolved(document.components.schemas[name] as Schema)?.properties?.[property])?.enum ?? [];
    },
  };
}
