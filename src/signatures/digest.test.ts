/** RFC 9530 Content-Digest: creation and checking against the raw body bytes. */
import { describe, expect, it } from 'vitest';
import { checkContentDigest, contentDigest } from './digest.js';

// Known answers from RFC 9530 Appendix B for the body {"hello": "world"}.
const BODY = new TextEncoder().encode('{"hello": "world"}');
const SHA256 = 'sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:';
const SHA512 = 'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:';

describe('contentDigest', () => {
  it('makes the RFC 9530 field value, sha-512 by default', () => {
    expect(contentDigest(BODY)).toBe(SHA512);
    expect(contentDigest('{"hello": "world"}', 'sha-256')).toBe(SHA256);
  });
});

describe('checkContentDigest', () => {
  it.each([SHA512, SHA256, `${SHA256}, ${SHA512}`, `md5=:AAAA:, ${SHA256}`])('accepts %s', (header) => {
    expect(checkContentDigest(header, BODY)).toBeUndefined();
  });

  it('checks the bytes exactly: one changed byte fails', () => {
    const changed = new TextEncoder().encode('{"hello": "World"}');
    expect(checkContentDigest(SHA512, changed)).toMatch(/^Content-Digest sha-512 does not match the body: the body's sha-512 is :/);
  });

  it('fails when any supported digest present does not match', () => {
    expect(checkContentDigest(`${SHA512}, sha-256=:${Buffer.alloc(32).toString('base64')}:`, BODY)).toMatch(/sha-256 does not match/);
  });

  it.each([
    [undefined, /has a body but no Content-Digest/],
    ['  ', /has a body but no Content-Digest/],
    ['md5=:AAAA:', /no supported algorithm \(sha-512 or sha-256\)/],
    ['sha-512=abc', /sha-512 is not a byte sequence/],
    ['sha-512=:not base64!:', /not a Structured Fields dictionary/],
    ['SHA-512=:AAAA:', /not a Structured Fields dictionary/],
  ])('refuses %j', (header, reason) => {
    expect(checkContentDigest(header, BODY)).toMatch(reason);
  });
});
