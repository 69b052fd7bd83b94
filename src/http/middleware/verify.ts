/**
 * Request verification (docs/signatures.md: Request verification) on /v1 outside /auth: RFC 9530 Content-Digest over the raw
 * body, the RFC 9421 signature (ecdsa-p384-sha384, keyid lookup, created/expires against the wall
 * clock) and the Idempotency-Key on mutations. `strict` refuses the first failure with its code;
 * `warn` lets the request through with one `Sandbox-Warning` header and one log line per failure.
 * Either way the request journal gets what was found, the headers the checks read and the signature
 * base the sandbox computed, so that the inspector can show them side by side.
 */
import type { Context } from 'hono';
import type { KeyObject } from 'node:crypto';
import type { Verify } from '../../config/index.js';
import { SandboxError } from '../../domain/errors.js';
import { MUTATIONS } from '../../domain/idempotency.js';
import type { Verification, VerificationFailure as Failure } from '../../programmes/journal.js';
import type { Log } from '../../kernel/log.js';
import type { Auth } from '../../services/auth.js';
import { checkContentDigest } from '../../signatures/digest.js';
import {
  ALGORITHM,
  parseSignature,
  parseSignatureInput,
  signatureBase,
  SignatureFormatError,
  verifyBaseOnPool,
  type SignatureInput,
  type SignedMessage,
} from '../../signatures/message.js';
import { Uuid } from '../../domain/formats.js';
import { requestIdOf, servicesOf } from '../env.js';
import type { Stage } from '../pipeline.js';

const MAX_CLOCK_SKEW_S = 300;

/**
 * Signatures already verified, per key object: a P-384 verification costs about a millisecond of
 * CPU, and a client may send the same signature many times (a GET's covers no body, so it holds
 * until it expires). The entry is the whole signature base plus the signature, so a hit means these
 * exact bytes verified with this exact key; created and expires are still checked every time. A
 * re-registered key is a new key object, so nothing verified under the old one carries over.
 */
const verified = new WeakMap<KeyObject, Set<string>>();
const MAX_VERIFIED_PER_KEY = 10_000;

/**
 * Parsed Signature-Input and Signature headers by their text, for the same reason: parsing
 * Structured Fields costs more than the rest of the check. Refusals are not kept.
 */
const parsedInputs = new Map<string, SignatureInput>();
const parsedSignatures = new Map<string, Buffer>();
const MAX_PARSED = 1000;

function remembered<T>(cache: Map<string, T>, text: string, parse: () => T): T {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  const value = parse();
  if (cache.size >= MAX_PARSED) cache.clear();
  cache.set(text, value);
  return value;
}

async function verifies(base: string, signature: Buffer, key: KeyObject): Promise<boolean> {
  const entry = `${signature.toString('base64')} ${base}`;
  let seen = verified.get(key);
  if (seen?.has(entry)) return true;
  if (!(await verifyBaseOnPool(base, signature, key))) return false;
  seen = verified.get(key);
  if (!seen) verified.set(key, (seen = new Set()));
  if (seen.size >= MAX_VERIFIED_PER_KEY) seen.clear();
  seen.add(entry);
  return true;
}

export function messageOf(c: Context): SignedMessage {
  const url = new URL(c.req.url);
  return {
    method: c.req.method,
    authority: c.req.header('Host') ?? url.host,
    path: url.pathname,
    query: url.search.slice(1),
    scheme: url.protocol.slice(0, -1),
    header: (name) => c.req.header(name),
  };
}

/** Why the request's signature does not hold, or undefined when it does. */
export async function checkSignature(c: Context, rawBody: Uint8Array, auth: Auth, wallSeconds: number): Promise<string | undefined> {
  const input = c.req.header('Signature-Input');
  const signature = c.req.header('Signature');
  if (!input || !signature) {
    const missing = [!input && 'Signature-Input', !signature && 'Signature'].filter(Boolean).join(' and ');
    return `missing ${missing}: sign the request (RFC 9421, ${ALGORITHM}) with a key registered at PUT /v1/auth/signing`;
  }
  try {
    const params = remembered(parsedInputs, input, () => parseSignatureInput(input));
    if (params.alg !== undefined && params.alg !== ALGORITHM) return `alg must be "${ALGORITHM}", got "${params.alg}"`;
    if (!params.keyid) return 'Signature-Input has no keyid parameter';
    const key = auth.signingKey(params.keyid);
    if (!key) return `keyid "${params.keyid}" is not a registered signing key: register it with PUT /v1/auth/signing`;
    const required = ['@method', '@authority', '@path', ...(rawBody.length > 0 ? ['content-digest'] : [])];
    const missing = required.filter((name) => !params.components.includes(name));
    if (missing.length) return `the signature must cover ${required.map((n) => `"${n}"`).join(' ')}; missing ${missing.map((n) => `"${n}"`).join(' ')}`;
    if (params.created === undefined) return 'Signature-Input has no created parameter';
    if (params.created > wallSeconds + MAX_CLOCK_SKEW_S)
      return `created (${params.created}) is more than 5 minutes in the future of the sandbox's wall clock (${wallSeconds})`;
    if (params.expires !== undefined && params.expires <= wallSeconds) return `the signature expired at ${params.expires} (wall clock now ${wallSeconds})`;
    const bytes = remembered(parsedSignatures, `${params.label} ${signature}`, () => parseSignature(signature, params.label));
    const base = signatureBase(messageOf(c), params.components, params.serialisedParams);
    if (bytes.length !== 96) return `the signature must be 96 bytes of raw r||s (not DER), got ${bytes.length} bytes`;
    if (!(await verifies(base, bytes, key)))
      return `the signature does not verify with key "${params.keyid}". The signature base the sandbox computed:\n${base}`;
    return undefined;
  } catch (error) {
    if (error instanceof SignatureFormatError) return error.message;
    throw error;
  }
}

/** The headers the checks read, kept in the journal when one fails; Authorization is never among them. */
const CHECKED_HEADERS = ['Host', 'Content-Type', 'Content-Digest', 'Idempotency-Key', 'Signature-Input', 'Signature'] as const;
/** Each header value and signature base the journal keeps is cut at this length. */
const MAX_KEPT = 4096;
const clip = (text: string) => (text.length > MAX_KEPT ? `${text.slice(0, MAX_KEPT)}…` : text);

/** The signature base from the request and its Signature-Input, or undefined when that cannot be made. */
function computedBase(c: Context): string | undefined {
  const input = c.req.header('Signature-Input');
  if (!input) return undefined;
  try {
    const params = remembered(parsedInputs, input, () => parseSignatureInput(input));
    return signatureBase(messageOf(c), params.components, params.serialisedParams);
  } catch (error) {
    if (error instanceof SignatureFormatError) return undefined;
    throw error;
  }
}

/** What the journal keeps of a request whose checks failed: only then is any of this gathered. */
function findings(c: Context, failures: Failure[], outcome: Verification['outcome']): Verification {
  const headers: Record<string, string> = {};
  for (const name of CHECKED_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = clip(value);
  }
  const base = failures.some((f) => f.code === 'invalid_signature') ? computedBase(c) : undefined;
  return { outcome, failures, headers, ...(base !== undefined && { signatureBase: clip(base) }) };
}

/** Escapes what may not stand in a header value. */
const headerSafe = (text: string) => text.replace(/\n/g, '\\n').replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * `wall` is the real clock: signatures are made with the integrator's clock, never the sandbox's.
 * Off, there is no stage.
 */
export function verifyRequests(mode: Exclude<Verify, 'off'>, wall: () => number, log: Log): Stage {
  const run: Stage['run'] = async (c, next) => {
    c.set('verified', true);
    const rawBody = c.get('rawBody');
    const failures: Failure[] = [];
    if (rawBody.length > 0 || c.req.header('Content-Digest') !== undefined) {
      const why = checkContentDigest(c.req.header('Content-Digest'), rawBody);
      if (why) failures.push({ code: 'invalid_content_digest', detail: why });
    }
    const why = await checkSignature(c, rawBody, servicesOf(c).auth, Math.floor(wall() / 1000));
    if (why) failures.push({ code: 'invalid_signature', detail: why });
    if (MUTATIONS.has(c.req.method)) {
      const key = c.req.header('Idempotency-Key');
      if (key === undefined) failures.push({ code: 'missing_idempotency_key', detail: `${c.req.method} requests need an Idempotency-Key header (a UUID)` });
      else if (!Uuid.safeParse(key).success) failures.push({ code: 'invalid_idempotency_key', detail: `Idempotency-Key must be a UUID, got "${key}"` });
    }
    if (failures.length === 0) return next();
    c.set('verification', findings(c, failures, mode === 'strict' ? 'refused' : 'warned'));
    if (mode === 'strict') throw new SandboxError(failures[0]!.code, failures[0]!.detail);
    for (const failure of failures) {
      c.get('warnings').push(failure.code);
      log.warn(`${c.req.method} ${c.req.path}: ${failure.code}: ${failure.detail}`, { requestId: requestIdOf(c) });
    }
    await next();
    for (const failure of failures) c.res.headers.append('Sandbox-Warning', headerSafe(`${failure.code}: ${failure.detail}`));
  };
  return { run };
}
