/** /v1/auth: tokens, credentials and request-signing keys (docs/signatures.md: Authentication, signatures and idempotency). */
import { createRoute } from '@hono/zod-openapi';
import type { Deps } from '../../deps.js';
import { fail } from '../../domain/errors.js';
import { INVALID_CREDENTIALS } from '../../services/auth.js';
import { servicesOf, type Api } from '../env.js';
import { CredentialKey, Credentials, SigningKey, SigningKeyId, Token } from '../../wire/auth.js';
import { jsonBody, jsonResponse, problem, standardProblems } from '../schemas.js';
import { answer } from '../answer.js';

const noContent = { 204: { description: 'Successful operation' } };
const tags = ['Authentication'];

/** POST /auth/token: the credentials are in the body, and nothing else is asked. */
export function tokenRoute(api: Api, { programmes }: Deps): void {
  api.openapi(
    createRoute({
      method: 'post',
      path: '/auth/token',
      tags,
      operationId: 'getToken',
      summary: 'Exchange an API key and its secret for a bearer token',
      security: [],
      request: { body: jsonBody(Credentials) },
      responses: { 200: jsonResponse(Token), 400: problem('Invalid request'), 401: problem('Invalid credentials'), 500: problem('Internal error') },
    }),
    (c) => {
      const { apiKey, apiSecret } = c.req.valid('json');
      // API keys are unique across programmes: the key names the programme the token is for.
      const programme = programmes.byApiKey(apiKey) ?? fail('invalid_credentials', INVALID_CREDENTIALS);
      c.set('programme', programme);
      return answer(c, programme.services.auth.issueToken(apiKey, apiSecret), 200);
    },
  );
}

/** The rest of /auth: credentials and signing keys, behind a token but never a signature or idempotency key. */
export function credentialRoutes(api: Api): void {
  api.openapi(
    createRoute({
      method: 'put',
      path: '/auth/credentials',
      tags,
      operationId: 'updateCredentials',
      summary: 'Add an API key with its secret, or give a key a new secret; tokens issued before stop working',
      request: { body: jsonBody(Credentials) },
      responses: { ...noContent, ...standardProblems },
    }),
    (c) => {
      const { apiKey, apiSecret } = c.req.valid('json');
      servicesOf(c).auth.putCredentials(apiKey, apiSecret);
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({
      method: 'delete',
      path: '/auth/credentials',
      tags,
      operationId: 'deleteCredentials',
      summary: 'Remove an API key (never the last one); tokens issued before stop working',
      request: { body: jsonBody(CredentialKey) },
      responses: { ...noContent, ...standardProblems },
    }),
    (c) => {
      servicesOf(c).auth.deleteCredentials(c.req.valid('json').apiKey);
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({
      method: 'put',
      path: '/auth/signing',
      tags,
      operationId: 'updateSigningKey',
      summary: 'Register the P-384 public key that request signatures are checked with, under its id, or replace it',
      request: { body: jsonBody(SigningKey) },
      responses: { ...noContent, ...standardProblems },
    }),
    (c) => {
      const { signingKeyId, signingKey } = c.req.valid('json');
      servicesOf(c).auth.putSigningKey(signingKeyId, signingKey);
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({
      method: 'delete',
      path: '/auth/signing',
      tags,
      operationId: 'deleteSigningKey',
      summary: 'Forget a signing key: requests signed with it are refused from then on',
      request: { body: jsonBody(SigningKeyId) },
      responses: { ...noContent, ...standardProblems },
    }),
    (c) => {
      servicesOf(c).auth.deleteSigningKey(c.req.valid('json').signingKeyId);
      return c.body(null, 204);
    },
  );
}
