/**
 * RFC 9421 with ecdsa-p384-sha384, checked against the independent `http-message-signatures`
 * library: the same signature base for the same message, our signatures verify there, and theirs
 * verify here, whatever the parity of s.
 */
import { generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { createVerifier, httpbis } from 'http-message-signatures';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ALGORITHM,
  derToRaw,
  parseSignature,
  parseSignatureInput,
  rawToDer,
  signatureBase,
  signBaseOnPool,
  signMessage,
  SignatureFormatError,
  verifyBase,
  verifyBaseOnPool,
  type SignedMessage,
} from './message.js';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const P384_ORDER = BigInt('0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973');
const URL_ = 'https://api.example.test:8443/v1/cards/5d2c9a4e-1111-4222-8333-444455556666?include=a%20b&x=1';
const HEADERS = { 'Content-Digest': 'sha-512=:AAAA:', 'Content-Type': 'application/json', 'X-Multi': ' one ' };

function message(url = URL_, headers: Record<string, string> = HEADERS, method = 'POST'): SignedMessage {
  const u = new URL(url);
  return {
    method,
    authority: u.host,
    path: u.pathname,
    query: u.search.slice(1),
    scheme: u.protocol.slice(0, -1),
    header: (name) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1],
  };
}

describe('signatureBase', () => {
  it('matches an independent implementation component for component', () => {
    const components = ['@method', '@authority', '@path', '@query', '@scheme', '@target-uri', '@request-target', 'content-digest', 'content-type', 'x-multi'];
    const params = `(${components.map((c) => `"${c}"`).join(' ')});created=1700000000;keyid="k";alg="${ALGORITHM}"`;
    const theirs = httpbis.formatSignatureBase([
      ...httpbis.createSignatureBase({ fields: components }, { method: 'POST', url: URL_, headers: HEADERS }),
      ['"@signature-params"', [params]],
    ]);
    expect(signatureBase(message(), components, params)).toBe(theirs);
  });

  it('uses "/" for an empty path and "?" for an empty query (§2.2.6, §2.2.7)', () => {
    const m = { ...message('http://h.test/'), path: '' };
    expect(signatureBase(m, ['@path', '@query'], '("@path" "@query")')).toBe('"@path": /\n"@query": ?\n"@signature-params": ("@path" "@query")');
  });

  it('refuses components it cannot derive', () => {
    expect(() => signatureBase(message(), ['@status'], '()')).toThrow(SignatureFormatError);
    expect(() => signatureBase(message(), ['Content-Type'], '()')).toThrow(/must be lower-case/);
    expect(() => signatureBase(message(), ['x-absent'], '()')).toThrow(/not a header of the message/);
  });
});

describe('parseSignatureInput', () => {
  it('reads the components and parameters, and re-serialises @signature-params as sent', () => {
    const header = 'sig1=("@method" "@authority" "@path" "content-digest");created=1700000000;expires=1700000300;keyid="key-1";alg="ecdsa-p384-sha384"';
    const input = parseSignatureInput(header);
    expect(input).toMatchObject({
      label: 'sig1',
      components: ['@method', '@authority', '@path', 'content-digest'],
      created: 1700000000,
      expires: 1700000300,
      keyid: 'key-1',
      alg: ALGORITHM,
    });
    expect(input.serialisedParams).toBe(header.slice('sig1='.length));
  });

  it.each([
    ['sig=(', /not a Structured Fields dictionary/],
    ['a=("@method");created=1, b=("@method");created=1', /exactly one signature, found 2/],
    ['sig="@method"', /must be an inner list/],
    ['sig=(1);created=1', /not a string/],
    ['sig=("content-digest";sf);created=1', /has parameters/],
    ['sig=("@method");created=1.5', /created must be an integer/],
    ['sig=("@method");keyid=k', /keyid must be a string/],
  ])('refuses %j', (header, reason) => {
    expect(() => parseSignatureInput(header)).toThrow(reason);
  });

  it('reads the matching signature bytes', () => {
    expect(parseSignature('other=:AQI=:, sig=:AwQ=:', 'sig')).toEqual(Buffer.from([3, 4]));
    expect(() => parseSignature('sig=:AwQ=:', 'sig1')).toThrow(/no "sig1" member/);
  });
});

describe('signMessage', () => {
  it('makes signatures an independent verifier accepts', async () => {
    const m = message();
    const { signatureInput, signature } = signMessage(m, {
      keyId: 'k1',
      privateKey,
      components: ['@method', '@authority', '@path', 'content-digest'],
      created: 1_700_000_000,
    });
    expect(signatureInput).toBe('sig=("@method" "@authority" "@path" "content-digest");created=1700000000;keyid="k1";alg="ecdsa-p384-sha384"');
    const verified = await httpbis.verifyMessage(
      {
        keyLookup: async (params) => (params.keyid === 'k1' ? { id: 'k1', algs: [ALGORITHM], verify: createVerifier(publicKey, ALGORITHM) } : null),
        notAfter: 1_700_000_000,
      },
      { method: 'POST', url: URL_, headers: { ...HEADERS, 'Signature-Input': signatureInput, Signature: signature } },
    );
    expect(verified).toBe(true);
  });
});

describe('verifyBase and verifyBaseOnPool', () => {
  const base = '"@method": GET\n"@signature-params": ("@method");created=1';
  const s = (sig: Buffer) => BigInt(`0x${sig.subarray(48).toString('hex')}`);

  it('accepts high-S and low-S forms of a signature, refuses other bytes', async () => {
    // (r, s) and (r, n - s) are both valid; OpenSSL makes either, and only one has s <= n/2.
    const sig = cryptoSign('sha384', Buffer.from(base), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    const twin = Buffer.concat([sig.subarray(0, 48), Buffer.from((P384_ORDER - s(sig)).toString(16).padStart(96, '0'), 'hex')]);
    const [high, low] = s(sig) > P384_ORDER / 2n ? [sig, twin] : [twin, sig];
    const cases: [string, Uint8Array, boolean][] = [
      [base, high, true],
      [base, low, true],
      [`${base} `, high, false],
      [base, high.subarray(0, 95), false],
      [base, cryptoSign('sha384', Buffer.from(base), privateKey), false],
    ];
    for (const [text, signature, verdict] of cases) {
      expect(verifyBase(text, signature, publicKey)).toBe(verdict);
      // The server's form, on the thread pool, gives the same verdicts.
      expect(await verifyBaseOnPool(text, signature, publicKey)).toBe(verdict);
    }
  });
});

describe('rawToDer and derToRaw', () => {
  const scalar = fc.uint8Array({ minLength: 48, maxLength: 48 });
  // Leading zero bytes and a set top bit are the cases DER encodes differently.
  const shaped = fc.oneof(
    scalar,
    scalar.map((b) => Buffer.concat([Buffer.alloc(3), b.subarray(3)])),
    scalar.map((b) => Buffer.from([0x80 | b[0]!, ...b.subarray(1)])),
  );

  it('turn r‖s into DER and back unchanged, as OpenSSL reads and writes it', () => {
    fc.assert(
      fc.property(shaped, shaped, (r, s) => {
        const raw = Buffer.concat([r, s]);
        expect(derToRaw(rawToDer(raw))).toEqual(raw);
      }),
    );
    // What OpenSSL makes in DER is the same signature in r‖s.
    const base = Buffer.from('"@method": POST');
    for (let i = 0; i < 20; i++) {
      const der = cryptoSign('sha384', base, privateKey);
      expect(verifyBase(base.toString(), derToRaw(der), publicKey)).toBe(true);
      expect(rawToDer(derToRaw(der))).toEqual(der);
    }
  });

  it('signBaseOnPool makes r‖s signatures that verify', async () => {
    const base = '"@method": POST\n"@signature-params": ("@method");created=1';
    const signature = await signBaseOnPool(base, privateKey);
    expect(signature).toHaveLength(96);
    expect(verifyBase(base, signature, publicKey)).toBe(true);
    expect(await verifyBaseOnPool(base, signature, publicKey)).toBe(true);
  });
});
