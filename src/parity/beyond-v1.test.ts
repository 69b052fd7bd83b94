/**
 * Parity compares only what the service's own v1 can produce (docs/money-path.md: Beyond v1):
 * every step of the journey is an operation of the service's document, with no body field its
 * request schema does not declare — so a beyond-v1 step (a partial capture's amount, a merchant
 * category for a tip, a balance, a rate, a force post) can never be compared. Read against the
 * structure of the service's document kept as a fixture.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOURNEY as POSTMAN_JOURNEY } from '../postman/journey.js';
import { REFERENCE_STRUCTURE } from '../testing/openapi-schemas.js';
import { JOURNEY } from './journey.js';
import type { Step, StepContext } from './step.js';

interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: Schema[];
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
const reference = JSON.parse(readFileSync(REFERENCE_STRUCTURE, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const operations = new Map(Object.values(reference.paths).flatMap((methods) => Object.values(methods).map((o) => [o.operationId, o] as const)));
const fieldsOf = (schema: Schema): string[] => {
  if (schema.$ref) return fieldsOf(reference.components.schemas[schema.$ref.split('/').pop()!]!);
  return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap(fieldsOf)];
};

const context: StepContext = {
  value: () => 'value',
  run: 'run',
  unknownId: 'unknown',
  credentials: { apiKey: 'k', apiSecret: 's' },
  wallet: () => ({ chainId: 'eip155:1:0x0', signChallenge: () => ({}) }),
};

/** Why `step` is beyond what the service's v1 produces, or undefined when v1 has all of it. */
function beyondV1(step: Pick<Step, 'id' | 'operationId' | 'body'>): string | undefined {
  const operation = operations.get(step.operationId);
  if (!operation) return `${step.id}: ${step.operationId} is not an operation of the service's document`;
  const body = step.body?.(context);
  if (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const schema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
  const declared = schema ? fieldsOf(schema) : [];
  const extra = Object.keys(body).filter((field) => !declared.includes(field));
  return extra.length ? `${step.id}: ${extra.join(', ')} not declared by ${step.operationId}` : undefined;
}

describe('parity never compares what is beyond v1', () => {
  it('holds only operations and body fields of the service document in its journey', () => {
    expect(JOURNEY.map(beyondV1).filter(Boolean)).toEqual([]);
  });

  // The Postman collection's journey may be pointed at the hosted sandbox (docs/postman.md): its /v1 steps hold to v1 too.
  it("holds only the service document's body fields in the Postman journey's /v1 steps", () => {
    const steps = POSTMAN_JOURNEY.filter((s) => s.plane !== 'control').map((s) => ({
      id: s.name,
      operationId: s.operation as Step['operationId'],
      body: () => s.body,
    }));
    expect(steps.map(beyondV1).filter(Boolean)).toEqual([]);
  });

  it('names a step beyond v1: a capture with an amount, a tip category, a control of the sandbox', () => {
    expect(beyondV1({ id: 'split', operationId: 'simulateCardAuthorisationCapture', body: () => ({ amount: '5', final: false }) })).toBe(
      'split: amount, final not declared by simulateCardAuthorisationCapture',
    );
    expect(
      beyondV1({
        id: 'tip',
        operationId: 'simulateCardAuthorisation',
        body: () => ({ amount: '50', currency: 'EUR', capture: false, merchant: { mcc: 5812 } }),
      }),
    ).toBe('tip: merchant not declared by simulateCardAuthorisation');
    expect(beyondV1({ id: 'rates', operationId: 'setRates' as Step['operationId'] })).toBe("rates: setRates is not an operation of the service's document");
  });
});
