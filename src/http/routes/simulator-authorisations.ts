/**
 * The three authorisation operations of the simulator: authorise a card payment, capture or
 * release it by hand (docs/api.md: Authorisations and transactions). Self-contained so that the control plane can
 * mount the same function on /_sandbox as the simulator mirror; the production environment has no
 * simulator, so nothing is registered there.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import { amountProblems } from '../../domain/money.js';
import { servicesOf, type Api } from '../env.js';
import { idParam, jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { Authorisation } from '../../wire/payment.js';

const text = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

const MerchantOverride = z
  .object({
    id: text.optional(),
    name: text.optional(),
    // A refinement rather than .int(): zod's integer check stops the checks that name other bad fields.
    mcc: z
      .number()
      .min(0)
      .max(9999)
      .refine(Number.isInteger, 'must be an integer')
      .optional()
      .openapi({ type: 'integer', minimum: 0, maximum: 9999, description: 'Merchant Category Code (ISO 18245)' }),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as GB')
      .optional(),
    city: text.optional(),
  })
  .openapi({ description: 'Replaces the given fields of the default merchant {id:"TEST", name:"Test Merchant", mcc:9999, country:"GB", city:"London"}' });

const requestBody = (currencies: Readonly<Record<string, number>>) =>
  z
    .object({
      amount: z
        .string({ error: 'must be a decimal string such as "12.50"' })
        .openapi({ format: 'decimal', description: 'Amount in `currency`, > 0, at most its ISO 4217 minor-unit digits' }),
      currency: z.string({ error: 'must be an ISO 4217 currency code such as "EUR"' }).openapi({ description: 'Merchant currency (ISO 4217)' }),
      capture: z.boolean({ error: 'must be true or false' }).default(true).openapi({ description: 'Capture automatically one second after authorising' }),
      merchant: MerchantOverride.optional(),
    })
    // Runs even when other fields failed, so that one answer names every bad field.
    .superRefine(
      (body, ctx) => {
        for (const { path, message } of amountProblems(body.amount, body.currency, currencies)) ctx.addIssue({ code: 'custom', path: [path], message });
      },
      { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
    );

const accepted = { 202: { description: 'Accepted: the authorisation is capturing (or releasing) and completes one second later' } };
const notFound = { 404: problem('Authorisation not found') };
const tags = ['Simulator'];

export function simulatorAuthorisationRoutes(api: Api, deps: Deps): void {
  if (deps.config.env === 'production') return;

  api.openapi(
    createRoute({
      method: 'post',
      path: '/simulator/cards/{cardId}/authorisation',
      tags,
      operationId: 'simulateCardAuthorisation',
      request: { params: idParam('cardId'), body: jsonBody(requestBody(deps.shared.money.currencies)) },
      responses: { 201: jsonResponse(Authorisation), ...standardProblems, 404: problem('Card not found') },
    }),
    (c) => c.json(servicesOf(c).authorisations.authorise(c.req.valid('param').cardId, c.req.valid('json')), 201),
  );

  api.openapi(
    createRoute({
      method: 'patch',
      path: '/simulator/authorisations/{authorisationId}/capture',
      tags,
      operationId: 'simulateCardAuthorisationCapture',
      request: { params: idParam('authorisationId') },
      responses: { ...accepted, ...standardProblems, ...notFound },
    }),
    (c) => {
      servicesOf(c).authorisations.capture(c.req.valid('param').authorisationId);
      return c.body(null, 202);
    },
  );

  api.openapi(
    createRoute({
      method: 'patch',
      path: '/simulator/authorisations/{authorisationId}/release',
      tags,
      operationId: 'simulateCardAuthorisationRelease',
      request: { params: idParam('authorisationId') },
      responses: { ...accepted, ...standardProblems, ...notFound },
    }),
    (c) => {
      servicesOf(c).authorisations.release(c.req.valid('param').authorisationId);
      return c.body(null, 202);
    },
  );
}
