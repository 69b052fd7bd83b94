import { parseSiweMessage as viemParse, validateSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../kernel/ids.js';
import { buildSiweMessage, encodeChallenge, makeNonce, parseSiweMessage, type SiweMessage } from './siwe.js';

const message: SiweMessage = {
  domain: 'card-sandbox.dev',
  address: '0xAb16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
  statement: 'Prove it.',
  uri: 'https://card-sandbox.dev',
  version: '1',
  chainId: 11155111,
  nonce: 'abcDEF0123456789',
  issuedAt: '2026-03-01T09:00:00.000Z',
  expirationTime: '2026-03-01T10:00:00.000Z',
  requestId: 'req-1',
};

describe('EIP-4361 messages', () => {
  it('round-trip through build and parse', () => {
    expect(parseSiweMessage(buildSiweMessage(message))).toEqual(message);
    const { statement: _statement, requestId: _requestId, expirationTime: _expirationTime, ...bare } = message;
    expect(parseSiweMessage(buildSiweMessage(bare))).toEqual(bare);
  });

  it('are read the same by an independent implementation (viem)', () => {
    const parsed = viemParse(buildSiweMessage(message));
    expect(parsed).toMatchObject({
      domain: message.domain,
      address: message.address,
      chainId: 11155111,
      nonce: message.nonce,
      statement: 'Prove it.',
      version: '1',
      requestId: 'req-1',
    });
    expect(parsed.issuedAt?.toISOString()).toBe(message.issuedAt);
    expect(
      validateSiweMessage({
        message: parsed,
        address: message.address as `0x${string}`,
        domain: message.domain,
        nonce: message.nonce,
        time: new Date('2026-03-01T09:30:00Z'),
      }),
    ).toBe(true);
    expect(validateSiweMessage({ message: parsed, time: new Date('2026-03-01T10:00:01Z') })).toBe(false);
  });

  it('parse refuses text that is not such a message', () => {
    expect(parseSiweMessage('hello')).toBeUndefined();
    expect(parseSiweMessage(buildSiweMessage(message).replace('Version: 1', 'Version: 2'))).toBeUndefined();
  });

  it('challenges are base64 of the message with the sandbox times', () => {
    const challenge = encodeChallenge({
      address: message.address,
      chainId: 300,
      statement: 'S.',
      nonce: 'n0nceN0NCEn0nce1',
      issuedAt: Date.parse(message.issuedAt),
      expiresAt: Date.parse(message.expirationTime!),
    });
    const parsed = parseSiweMessage(Buffer.from(challenge, 'base64').toString('utf8'));
    expect(parsed).toMatchObject({ chainId: 300, issuedAt: message.issuedAt, expirationTime: message.expirationTime, nonce: 'n0nceN0NCEn0nce1' });
  });
});

describe('makeNonce', () => {
  it('gives 16 alphanumeric characters, different each time', () => {
    const random = seededRandom(1);
    const nonces = Array.from({ length: 100 }, () => makeNonce((n) => random.bytes(n)));
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(new Set(nonces).size).toBe(100);
  });

  it('skips bytes that would bias it', () => {
    let call = 0;
    // First call: all 255 (rejected); then 0..15 → "ABCDEFGHIJKLMNOP".
    const nonce = makeNonce((n) => new Uint8Array(n).map((_, i) => (call++ < n ? 255 : i)));
    expect(nonce).toBe('ABCDEFGHIJKLMNOP');
  });
});
