/**
 * Authentication (docs/signatures.md: Authentication, signatures and idempotency): API credentials, HS256 access tokens and the integrator's
 * request-signing keys. Tokens are signed with a random secret kept in the database and carry a
 * generation counter: changing or deleting credentials bumps it and so invalidates every token
 * issued before. Expiry is checked against the sandbox clock.
 */
import { createHash, createHmac, timingSafeEqual, type KeyObject, createPublicKey } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Core } from './core.js';
import type { Store } from '../store/store.js';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import { DEFAULT_PROGRAMME } from '../domain/programme.js';
import { fail } from '../domain/errors.js';
import { credentials, programmes, signingKeys } from '../store/schema.js';
import { parseP384PublicKey } from '../signatures/keys.js';
import type { Credentials, Token } from '../wire/auth.js';

export const INVALID_CREDENTIALS = 'apiKey and apiSecret do not match a credential of this sandbox';

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const JWT_HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The programme a bearer token was issued for, read from its claims before anything is checked
 * (the programme's own secret checks the signature); tokens without one are the default
 * programme's. Undefined when the header is not a readable token.
 */
export function programmeOfToken(authorization: string | undefined): string | undefined {
  // A client sends the same token request after request: the last answer is kept.
  if (authorization === lastToken.authorization) return lastToken.programme;
  const programme = readProgramme(authorization);
  lastToken = { authorization, programme };
  return programme;
}
let lastToken: { authorization: string | undefined; programme: string | undefined } = { authorization: undefined, programme: undefined };

/** A JWT's three base64url parts in an `Authorization: Bearer <JWT>` value; the scheme is case-insensitive (RFC 9110 §11.1). */
function bearerToken(authorization: string): { header: string; payload: string; signature: string } | undefined {
  const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/i.exec(authorization.trim());
  return m ? { header: m[1]!, payload: m[2]!, signature: m[3]! } : undefined;
}

function readProgramme(authorization: string | undefined): string | undefined {
  const payload = authorization === undefined ? undefined : bearerToken(authorization)?.payload;
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { prg?: unknown };
    return typeof claims?.prg === 'string' ? claims.prg : DEFAULT_PROGRAMME;
  } catch {
    return undefined;
  }
}

/**
 * Gives `programme` the credential `apiKey` (its secret kept hashed), or a new secret for it; refused
 * when another programme holds the key, as API keys name their programme.
 */
export function putCredential({ db }: Store, programme: string, { apiKey, apiSecret }: { apiKey: string; apiSecret: string }, now: number): void {
  const owner = db.select({ programmeId: credentials.programmeId }).from(credentials).where(eq(credentials.apiKey, apiKey)).get()?.programmeId;
  if (owner !== undefined && owner !== programme) {
    const message = 'belongs to another programme of this sandbox; choose another';
    fail('invalid_request', `apiKey ${apiKey} ${message}`, [{ path: 'apiKey', message }]);
  }
  const secretHash = hashSecret(apiSecret);
  db.insert(credentials)
    .values({ apiKey, programmeId: programme, secretHash, createdAt: now })
    .onConflictDoUpdate({ target: credentials.apiKey, set: { secretHash } })
    .run();
}

export function createAuth(core: Core) {
  const { store, clock, config, programme } = core;
  const { db } = store;
  const thisProgramme = eq(programmes.id, programme);
  const mine = eq(credentials.programmeId, programme);

  const state = db.select({ tokenSecret: programmes.tokenSecret, tokenGeneration: programmes.tokenGeneration }).from(programmes).where(thisProgramme).get();
  if (!state) throw new Error(`programme ${programme} has no row`);
  const hmacKey = Buffer.from(state.tokenSecret, 'hex');
  let generation = state.tokenGeneration;
  const keyCache = new Map<string, KeyObject>();
  // Claims of tokens whose signature already checked out, by the Authorization header they came in:
  // a client sends the same one with every request, and reading the header, the HMAC and parsing
  // cost more than the rest of a GET. The generation and expiry are still checked every time.
  const checked = new Map<string, { sub: string; exp: number; gen: number }>();
  const MAX_CHECKED = 1000;

  const bumpGeneration = () => {
    generation++;
    db.update(programmes).set({ tokenGeneration: generation }).where(thisProgramme).run();
  };
  const mac = (input: string) => createHmac('sha256', hmacKey).update(input).digest();
  const checkClaims = (claims: { sub: string; exp: number; gen: number }): string => {
    if (claims.gen !== generation) fail('not_authorised', 'the token was revoked: credentials changed after it was issued');
    if (clock.now() >= claims.exp * 1000) fail('not_authorised', `the token expired at ${new Date(claims.exp * 1000).toISOString()} (sandbox time)`);
    return claims.sub;
  };
  const credentialCount = () =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(credentials)
      .where(mine)
      .get()!.n;

  /** API keys are unique across programmes: one that another programme holds is refused. */
  const upsertCredential = (apiKey: string, apiSecret: string) => putCredential(store, programme, { apiKey, apiSecret }, clock.now());

  return {
    /**
     * Registers `given` (the default programme's --api-key/--api-secret at every start, or a new
     * programme's credential); without it, a programme without credentials gets the default one.
     * Tokens already issued stay valid.
     */
    init(given?: Credentials): void {
      store.transaction(() => {
        if (given) upsertCredential(given.apiKey, given.apiSecret);
        else if (credentialCount() === 0) upsertCredential(DEFAULT_API_KEY, DEFAULT_API_SECRET);
      });
    },

    issueToken(apiKey: string, apiSecret: string): Token {
      // With --admin-token the sandbox is meant to be reached from a network: the credentials every
      // banner and page prints are no secret there (docs/reliability.md: Open to a network).
      if (config.adminToken !== undefined && config.apiSecret === undefined && programme === DEFAULT_PROGRAMME && apiSecret === DEFAULT_API_SECRET)
        fail(
          'invalid_credentials',
          'this sandbox was started with --admin-token, so the well-known default credentials are refused: start it with --api-key and --api-secret of your own',
        );
      const row = db
        .select()
        .from(credentials)
        .where(and(mine, eq(credentials.apiKey, apiKey)))
        .get();
      const given = Buffer.from(hashSecret(apiSecret), 'hex');
      if (!row || !timingSafeEqual(Buffer.from(row.secretHash, 'hex'), given)) {
        fail('invalid_credentials', INVALID_CREDENTIALS);
      }
      const iat = Math.floor(clock.now() / 1000);
      const exp = Math.floor((clock.now() + config.tokenTtlMs) / 1000);
      const payload = b64url(JSON.stringify({ sub: apiKey, prg: programme, iat, exp, gen: generation, jti: core.ids.uuid() }));
      const signing = `${JWT_HEADER}.${payload}`;
      return { token: `${signing}.${b64url(mac(signing))}`, expiresAt: exp, tokenType: 'Bearer' };
    },

    /** Checks an `Authorization` header value; returns the API key it was issued to. */
    authenticate(authorization: string | undefined): string {
      if (!authorization) fail('not_authorised', 'missing Authorization header: send Authorization: Bearer <token> from POST /v1/auth/token');
      const known = checked.get(authorization);
      if (known) return checkClaims(known);
      const { header, payload, signature } = bearerToken(authorization) ?? fail('not_authorised', 'Authorization must be "Bearer <JWT>"');
      let parsedHeader: { alg?: unknown };
      let claims: { sub?: unknown; exp?: unknown; gen?: unknown };
      try {
        parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        fail('not_authorised', 'the token is not a readable JWT');
      }
      if (parsedHeader?.alg !== 'HS256') fail('not_authorised', `the token's algorithm must be HS256, got ${JSON.stringify(parsedHeader?.alg)}`);
      const expected = mac(`${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) fail('not_authorised', 'the token signature is not valid for this sandbox');
      // Integers only: an exp out of Date's range would otherwise fail when the detail names it.
      if (typeof claims?.sub !== 'string' || !Number.isSafeInteger(claims.exp) || !Number.isSafeInteger(claims.gen))
        fail('not_authorised', 'the token lacks sub, exp or gen');
      const valid = { sub: claims.sub, exp: claims.exp as number, gen: claims.gen as number };
      if (checked.size >= MAX_CHECKED) checked.clear();
      checked.set(authorization, valid);
      return checkClaims(valid);
    },

    putCredentials(apiKey: string, apiSecret: string): void {
      store.transaction(() => {
        upsertCredential(apiKey, apiSecret);
        bumpGeneration();
      });
    },

    deleteCredentials(apiKey: string): void {
      store.transaction(() => {
        const row = db
          .select()
          .from(credentials)
          .where(and(mine, eq(credentials.apiKey, apiKey)))
          .get();
        if (!row) fail('unknown_credential', `no credential with apiKey ${apiKey}`, [{ path: 'apiKey', message: 'names no credential of this programme' }]);
        if (credentialCount() === 1) fail('last_credential', 'cannot delete the last credential: add another with PUT /v1/auth/credentials first');
        db.delete(credentials)
          .where(and(mine, eq(credentials.apiKey, apiKey)))
          .run();
        bumpGeneration();
      });
    },

    putSigningKey(signingKeyId: string, signingKey: string): void {
      const parsed = parseP384PublicKey(signingKey);
      if ('error' in parsed) fail('invalid_signing_key', parsed.error, [{ path: 'signingKey', message: parsed.error }]);
      db.insert(signingKeys)
        .values({ programmeId: programme, keyId: signingKeyId, publicKey: parsed.pem, createdAt: clock.now() })
        .onConflictDoUpdate({ target: [signingKeys.programmeId, signingKeys.keyId], set: { publicKey: parsed.pem } })
        .run();
      keyCache.set(signingKeyId, parsed.key);
    },

    deleteSigningKey(signingKeyId: string): void {
      const result = db
        .delete(signingKeys)
        .where(and(eq(signingKeys.programmeId, programme), eq(signingKeys.keyId, signingKeyId)))
        .run();
      if (result.changes === 0)
        fail('unknown_signing_key', `no signing key with signingKeyId ${signingKeyId}`, [
          { path: 'signingKeyId', message: 'names no signing key of this programme' },
        ]);
      keyCache.delete(signingKeyId);
    },

    /** The registered public key for a `keyid`, or undefined. */
    signingKey(keyId: string): KeyObject | undefined {
      const cached = keyCache.get(keyId);
      if (cached) return cached;
      const row = db
        .select()
        .from(signingKeys)
        .where(and(eq(signingKeys.programmeId, programme), eq(signingKeys.keyId, keyId)))
        .get();
      if (!row) return undefined;
      const key = createPublicKey(row.publicKey);
      keyCache.set(keyId, key);
      return key;
    },
  };
}

export type Auth = ReturnType<typeof createAuth>;
