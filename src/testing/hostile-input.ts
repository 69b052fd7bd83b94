/**
 * fast-check arbitraries for hostile input: strings and JSON values that break parsers and
 * validators (wrong types, nulls, huge and deeply nested values, lone surrogates, control
 * characters, prototype keys), path segments and query strings, and broken versions of every
 * header the request pipeline reads (Authorization, Signature-Input, Signature, Content-Digest,
 * Idempotency-Key, Content-Type). Not shipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';

/** Any UTF-16 code unit, lone surrogates included: what a careless client can put in a JSON string. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '0x10',
  '12.500000000000000000001',
  '\ud800',
  '\udfff',
  '\u202e\u0041',
  '\ufeff',
  'é',
  'e\u0301',
  '🂡🂱',
  'ＥＵＲ',
  'İ',
  '\u0130'.toLowerCase(),
  '../../../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  "' OR 1=1 --",
  '"; DROP TABLE customers; --',
  '<script>alert(1)</script>',
  '${process.exit()}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '\r\nX-Injected: 1',
  'a'.repeat(300),
  'A'.repeat(70_000),
] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.1,
  1e-7,
  1e21,
  1.7976931348623157e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  9999,
  10000,
  2 ** 31,
] as const;

/** A JSON value of any type, shaped to trip validators. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.constantFrom(null, true, false, ...NASTY_NUMBERS),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    // Built with fromEntries so that "__proto__" is an own key, as JSON.parse makes it.
    fc
      .array(fc.tuple(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('value')), { maxLength: 4 })
      .map((entries) => Object.fromEntries(entries)),
  ),
})).value;

/** JSON text nested `depth` levels deep, as arrays or objects. */
export const deeplyNested = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Bodies that are not JSON, or are JSON only in a way a parser may choke on. */
export const hostileRawBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":1',
    '}',
    'nul',
    "{'a':1}",
    '{"a":1}{"b":2}',
    '{"a":1,}',
    '[1,]',
    '\ufeff{}',
    '\u0000',
    '{"a":"\\ud800"}',
    '{"a":"\\u00"}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '1e999999',
    '-',
    '"unterminated',
    deeplyNested(10_000, 'array'),
    deeplyNested(100_000, 'array'),
    deeplyNested(10_000, 'object'),
    `{"x":"${'a'.repeat(900_000)}"}`,
    'a'.repeat(1_048_577),
  ),
  fc.string({ unit: codeUnit, maxLength: 60 }),
);

/** Characters a client can put in a header value (visible ASCII, space, tab, obs-text). */
const headerChar = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })).map((n) => String.fromCharCode(n));
export const headerText = (maxLength = 80) => fc.string({ unit: headerChar, maxLength });

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** Signature-Input values that are malformed, or well-formed but wrong (RFC 9421 §4.1). */
export const brokenSignatureInput = (keyId: string): fc.Arbitrary<string> =>
  fc.oneof(
    headerText(),
    fc.constantFrom(
      '',
      'sig=',
      'sig=()',
      'sig=(',
      'sig="@method"',
      'sig=("@method" "@authority" "@path")',
      'sig=("@method" "@authority" "@path");created=abc',
      `sig=("@method" "@authority" "@path");created=1;keyid="${keyId}";alg="ecdsa-p384-sha384"`,
      `sig=("@method" "@authority" "@path" "content-digest");created=99999999999999999999;keyid="${keyId}"`,
      `sig=("@method" "@authority" "@path" "content-digest");created=-1;expires=1;keyid="${keyId}"`,
      `sig=("@method" "@authority" "@path" "content-digest");created=${Math.floor(Date.now() / 1000)};keyid="${keyId}";alg="rsa-pss-sha512"`,
      `sig=("@method" "@authority" "@path" "content-digest");created=${Math.floor(Date.now() / 1000)};keyid="unknown-key"`,
      `sig=("@method" "@authority" "@path" "content-digest");created=${Math.floor(Date.now() / 1000)};keyid=${keyId}`,
      `sig=("@method" "@authority" "@path" "content-digest" "@query-param";name="x");created=${Math.floor(Date.now() / 1000)};keyid="${keyId}"`,
      `sig=(1 2 3);created=1;keyid="${keyId}"`,
      `sig=("@method");created=1, sig2=("@path");created=2`,
      'other=("@method");created=1',
      `sig=("@method" "@authority" "@path" "content-digest");created=${Math.floor(Date.now() / 1000)};keyid="${keyId}"${';a=1'.repeat(500)}`,
      `sig=(${'"x" '.repeat(2000)})`,
    ),
  );

/** Signature values (RFC 9421 §4.2) that do not hold: wrong length, not base64, another label, DER. */
export const brokenSignature: fc.Arbitrary<string> = fc.oneof(
  headerText(),
  fc.constantFrom(
    '',
    'sig=',
    'sig=:AAAA:',
    `sig=:${b64(96)}:`,
    `sig=:${b64(104)}:`,
    'sig=:not base64!:',
    `other=:${b64(96)}:`,
    'sig=?1',
    'sig=("a")',
    `sig=:${b64(96)}:, sig=:${b64(96)}:`,
    `sig=:${'A'.repeat(8000)}:`,
  ),
);

/** Content-Digest values (RFC 9530 §2) that are malformed or do not match the body. */
export const brokenDigest: fc.Arbitrary<string> = fc.oneof(
  headerText(),
  fc.constantFrom(
    '',
    'sha-512',
    'sha-512=abc',
    'sha-512=:AAAA:',
    'sha-512=:!!:',
    `sha-256=:${createHash('sha256').update('another body').digest('base64')}:`,
    `sha-512=:${createHash('sha512').update('').digest('base64')}:`,
    `md5=:${createHash('md5').update('').digest('base64')}:`,
    `SHA-512=:${b64(64)}:`,
    `sha-512=:${b64(64)}:, sha-256=:${b64(32)}:`,
    `sha-512=:${'A'.repeat(8000)}:`,
    'sha-512=?1',
    'sha-512=("a")',
  ),
);

/** Authorization values that are not a valid token of the sandbox (RFC 6750 §2.1, RFC 7519). */
export const brokenAuthorization = (validToken: string): fc.Arbitrary<string> => {
  const [header, payload] = validToken.split('.') as [string, string];
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  return fc.oneof(
    headerText(),
    fc.constantFrom(
      '',
      'Bearer',
      'Bearer ',
      'Bearer a.b',
      'Bearer a.b.c',
      'Bearer ...',
      `Basic ${Buffer.from('user:pass').toString('base64')}`,
      `Token ${validToken}`,
      `Bearer ${validToken}x`,
      `Bearer ${validToken}.extra`,
      `Bearer ${validToken.slice(0, -2)}`,
      `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${payload}.x`,
      `Bearer ${encode({ alg: 'HS512', typ: 'JWT' })}.${payload}.${validToken.split('.')[2]}`,
      `Bearer ${header}.${encode({ ...claims, exp: 9_999_999_999 })}.${validToken.split('.')[2]}`,
      `Bearer ${header}.${encode('not an object')}.x`,
      `Bearer ${'A'.repeat(8000)}.${'B'.repeat(8000)}.C`,
      `Bearer ${validToken} ${validToken}`,
    ),
  );
};

export const brokenIdempotencyKey: fc.Arbitrary<string> = fc.oneof(
  headerText(40),
  fc.constantFrom('', 'not-a-uuid', '00000000-0000-0000-0000-00000000000g', '{7c9e6679-7425-40de-944b-e07fc1f90ae7}', 'a'.repeat(5000)),
);

export const contentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'json',
  '',
  undefined,
);

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD), leaving unreserved characters (RFC 3986 §2.3). */
export const percentEncode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

/** A path segment: percent-encoded text, or raw bytes a router must survive. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  hostileString.map((s) => percentEncode(s.slice(0, 2000))),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '%2F', '%2e%2e', '..', '.', '-', '%20', 'a%2Fb', '%EF%BF%BF', '%ED%A0%80'),
);

const QUERY_NAMES = ['chain', 'type', 'entityId', 'before', 'limit', 'after', 'status', 'x'];

/** A query string (without `?`): known parameter names with hostile values, repeats, broken encodings. */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...QUERY_NAMES),
        fc.oneof(
          hostileString.map((s) => percentEncode(s.slice(0, 500))),
          fc.constantFrom('', '0', '-1', '1001', '1e3', 'abc', '%', '%zz', 'eip155:1', 'eip155:11155111', 'card.updated'),
        ),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.constantFrom('&&&', '=', '==', 'limit', 'limit=1&limit=2', '%', 'a[b]=1', `x=${'a'.repeat(6000)}`),
);
