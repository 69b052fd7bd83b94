/**
 * RFC 9421 HTTP Message Signatures with `ecdsa-p384-sha384` (§3.3.5): the signature base
 * (§2.5), parsing `Signature-Input` / `Signature` (§4.1, §4.2), signing and verifying. The
 * signature is the raw r‖s concatenation (96 bytes), not DER; node:crypto's `ieee-p1363`
 * encoding does exactly that and accepts high-S signatures as OpenSSL produces them.
 */
import { sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { parseDictionary, serializeDictionary, serializeInnerList, serializeItem, type InnerList, type Item, type Parameters } from 'structured-headers';

export const ALGORITHM = 'ecdsa-p384-sha384';

/** The parts of a request (or webhook) that components are read from. */
export interface SignedMessage {
  method: string;
  /** Host as sent (`@authority`, §2.2.3), lower-cased when building the base. */
  authority: string;
  /** The undecoded path (`@path`, §2.2.6). */
  path: string;
  /** The undecoded query without `?`, or '' (§2.2.7). */
  query: string;
  scheme: string;
  header(name: string): string | undefined;
}

export interface SignatureInput {
  label: string;
  components: string[];
  params: Parameters;
  created?: number;
  expires?: number;
  keyid?: string;
  alg?: string;
  /** `@signature-params` as serialised (§2.3). */
  serialisedParams: string;
}

export class SignatureFormatError extends Error {}

/** Parses `Signature-Input`; exactly one signature is accepted. */
export function parseSignatureInput(header: string): SignatureInput {
  let dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch {
    throw new SignatureFormatError(`Signature-Input is not a Structured Fields dictionary: ${header}`);
  }
  if (dictionary.size !== 1) throw new SignatureFormatError(`Signature-Input must hold exactly one signature, found ${dictionary.size}`);
  const [label, member] = [...dictionary][0]!;
  if (!Array.isArray(member[0])) throw new SignatureFormatError(`Signature-Input "${label}" must be an inner list of components`);
  const innerList = member as InnerList;
  const components = innerList[0].map(([value, params]) => {
    if (typeof value !== 'string') throw new SignatureFormatError(`Signature-Input "${label}" has a component that is not a string`);
    if (params.size > 0) throw new SignatureFormatError(`component "${value}" has parameters, which the sandbox does not support`);
    return value;
  });
  const params = innerList[1];
  const num = (name: string) => {
    const v = params.get(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new SignatureFormatError(`Signature-Input parameter ${name} must be an integer`);
    return v;
  };
  const text = (name: string) => {
    const v = params.get(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new SignatureFormatError(`Signature-Input parameter ${name} must be a string`);
    return v;
  };
  return {
    label,
    components,
    params,
    created: num('created'),
    expires: num('expires'),
    keyid: text('keyid'),
    alg: text('alg'),
    serialisedParams: serializeInnerList(innerList),
  };
}

/** Reads the signature bytes with `label` from the `Signature` header. */
export function parseSignature(header: string, label: string): Buffer {
  let dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch {
    throw new SignatureFormatError(`Signature is not a Structured Fields dictionary: ${header}`);
  }
  const member = dictionary.get(label);
  if (!member) throw new SignatureFormatError(`Signature has no "${label}" member to match Signature-Input`);
  if (!(member[0] instanceof ArrayBuffer)) throw new SignatureFormatError(`Signature "${label}" is not a byte sequence (:base64:)`);
  return Buffer.from(member[0]);
}

function componentValue(message: SignedMessage, name: string): string {
  switch (name) {
    case '@method':
      return message.method.toUpperCase();
    case '@authority':
      return message.authority.toLowerCase();
    case '@path':
      return message.path === '' ? '/' : message.path;
    case '@query':
      return `?${message.query}`;
    case '@scheme':
      return message.scheme.toLowerCase();
    case '@request-target':
      return message.query ? `${message.path}?${message.query}` : message.path;
    case '@target-uri':
      return `${message.scheme.toLowerCase()}://${message.authority.toLowerCase()}${message.path}${message.query ? `?${message.query}` : ''}`;
    default: {
      if (name.startsWith('@')) throw new SignatureFormatError(`component "${name}" is not supported`);
      if (name !== name.toLowerCase()) throw new SignatureFormatError(`component "${name}" must be lower-case`);
      const value = message.header(name);
      if (value === undefined) throw new SignatureFormatError(`covered component "${name}" is not a header of the message`);
      return value.trim();
    }
  }
}

/** Component names as serialised at the start of their lines (`"@method"`), by name. */
const componentIds = new Map<string, string>();

function componentId(name: string): string {
  let id = componentIds.get(name);
  if (id === undefined) {
    id = serializeItem([name, new Map()] as Item);
    // Names come from requests' Signature-Input too: keep the map from growing without bound.
    if (componentIds.size >= 256) componentIds.clear();
    componentIds.set(name, id);
  }
  return id;
}

/** The signature base of §2.5: one line per covered component, then `@signature-params`. */
export function signatureBase(message: SignedMessage, components: readonly string[], serialisedParams: string): string {
  let base = '';
  for (const name of components) base += `${componentId(name)}: ${componentValue(message, name)}\n`;
  return `${base}"@signature-params": ${serialisedParams}`;
}

export function signBase(base: string, privateKey: KeyObject): Buffer {
  return cryptoSign('sha384', Buffer.from(base), { key: privateKey, dsaEncoding: 'ieee-p1363' });
}

/** Whether `signature` (raw r‖s) over `base` verifies with `publicKey` (clients: verifyWebhook). */
export function verifyBase(base: string, signature: Uint8Array, publicKey: KeyObject): boolean {
  if (signature.length !== 96) return false;
  return cryptoVerify('sha384', Buffer.from(base), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
}

/*
 * The sandbox's own signing and verifying run on libuv's thread pool: a P-384 operation costs about
 * a millisecond of CPU, which on the event loop would hold up every other request, and the pool
 * puts the second core to work (docs/benchmarks.md: Benchmarks). They hand node:crypto the bare key and a DER
 * signature: with an options object ({ key, dsaEncoding }) starting the job cost 40-70 µs of the
 * event loop's time per call, with the bare key about 5 µs.
 */

/** Signs `base` on the thread pool (webhook deliveries); returns the raw r‖s. */
export function signBaseOnPool(base: string, privateKey: KeyObject): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    cryptoSign('sha384', Buffer.from(base), privateKey, (error, der) => (error ? reject(error) : resolve(derToRaw(der)))),
  );
}

/** `verifyBase` on the thread pool (request verification). */
export function verifyBaseOnPool(base: string, signature: Uint8Array, publicKey: KeyObject): Promise<boolean> {
  if (signature.length !== 96) return Promise.resolve(false);
  return new Promise((resolve) => cryptoVerify('sha384', Buffer.from(base), publicKey, rawToDer(signature), (error, ok) => resolve(!error && ok)));
}

const P384_SCALAR = 48;

/** A raw r‖s signature (RFC 9421 §3.3.5) as the DER `ECDSA-Sig-Value` OpenSSL takes (RFC 3279 §2.2.3). */
export function rawToDer(raw: Uint8Array): Buffer {
  const integer = (bytes: Uint8Array): Buffer => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    // A set top bit would read as negative: a zero byte goes first.
    const pad = bytes[start]! & 0x80 ? 1 : 0;
    const out = Buffer.alloc(2 + pad + bytes.length - start);
    out[0] = 0x02;
    out[1] = out.length - 2;
    out.set(bytes.subarray(start), 2 + pad);
    return out;
  };
  const r = integer(raw.subarray(0, P384_SCALAR));
  const s = integer(raw.subarray(P384_SCALAR));
  return Buffer.concat([Buffer.from([0x30, r.length + s.length]), r, s]);
}

/** The DER `ECDSA-Sig-Value` OpenSSL makes, as raw r‖s of 48 bytes each. */
export function derToRaw(der: Uint8Array): Buffer {
  const raw = Buffer.alloc(2 * P384_SCALAR);
  // SEQUENCE, short length (at most 2 × 51 bytes), then two INTEGERs.
  let at = 2;
  for (const offset of [0, P384_SCALAR]) {
    const length = der[at + 1]!;
    let value = der.subarray(at + 2, at + 2 + length);
    while (value.length > P384_SCALAR && value[0] === 0) value = value.subarray(1);
    raw.set(value, offset + P384_SCALAR - value.length);
    at += 2 + length;
  }
  return raw;
}

export interface SignOptions {
  keyId: string;
  privateKey: KeyObject;
  components: readonly string[];
  /** UNIX seconds. */
  created: number;
  expires?: number;
  label?: string;
}

/** Signs a message: returns the `Signature-Input` and `Signature` header values. */
/** The `@signature-params` value (§2.3) and the `Signature-Input` header (§4.1) for one signature. */
export function signatureInputFor(
  components: readonly string[],
  options: { keyId: string; created: number; expires?: number; label?: string },
): { serialisedParams: string; signatureInput: string } {
  const params: Parameters = new Map();
  params.set('created', options.created);
  if (options.expires !== undefined) params.set('expires', options.expires);
  params.set('keyid', options.keyId);
  params.set('alg', ALGORITHM);
  const innerList: InnerList = [components.map((c) => [c, new Map()] as Item), params];
  return {
    serialisedParams: serializeInnerList(innerList),
    signatureInput: serializeDictionary(new Map([[options.label ?? 'sig', innerList]])),
  };
}

export function signMessage(message: SignedMessage, options: SignOptions): { signatureInput: string; signature: string } {
  const { serialisedParams, signatureInput } = signatureInputFor(options.components, options);
  const base = signatureBase(message, options.components, serialisedParams);
  const signature = serializeDictionary(new Map([[options.label ?? 'sig', [signBase(base, options.privateKey), new Map()] as Item]]));
  return { signatureInput, signature };
}
