/**
 * Bodies checked against an OpenAPI 3.1 document's own JSON Schemas — the sandbox's /openapi.json
 * or /_sandbox/openapi.json, which mirror the service's document — with Ajv's JSON Schema 2020-12
 * validator: what an integrator's generated client or validator would check, and a second opinion
 * beside the zod shapes the answers are made from. Not shipped.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Document {
  servers?: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  components: { schemas: Record<string, unknown> };
}

export function openApiSchemas(document: Document) {
  // The document's paths follow its server's URL (the service's `…/v1`).
  const base = document.servers?.[0] ? new URL(document.servers[0].url).pathname.replace(/\/$/, '') : '';
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
    /** Why `value` is not the answer `method path` declares for `status`; `path` as sent, with the server's own (`/v1`). */
    answer(method: string, path: string, status: number, value: unknown): string[] {
      const schema = document.paths[path.slice(base.length)]?.[method.toLowerCase()]?.responses[String(status)]?.content?.['application/json']?.schema;
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
    /** Why `value` is not the body the document's webhooks section gives deliveries of `type`. */
    webhook(type: string, value: unknown): string[] {
      const schema = document.webhooks?.[type]?.post.requestBody.content['application/json']?.schema;
      if (!schema) return [`no webhook ${type}`];
      return errorsOf(schema, value, type);
    },
    /** The values of an enum property of a component schema (`Transaction`, `status`), inline or a component of its own. */
    enumOf(name: string, property: string): string[] {
      type Schema = { properties?: Record<string, Schema>; enum?: string[]; $ref?: string };
      const resolved = (schema: Schema | undefined): Schema | undefined =>
        schema?.$ref === undefined ? schema : resolved(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] as Schema);
      return resolved(resolved(document.components.schemas[name] as Schema)?.properties?.[property])?.enum ?? [];
    },
  };
}
