/**
 * Sign-In with Ethereum messages (EIP-4361): the text a wallet signs to prove it owns an address.
 * Challenges for customers and accounts are these messages, base64-encoded on the wire.
 */
import { iso } from './instant.js';

export interface SiweMessage {
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: '1';
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  requestId?: string;
}

export const SIWE_DOMAIN = 'card-sandbox.dev';
export const SIWE_URI = 'https://card-sandbox.dev';
const NONCE_LENGTH = 16;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 16-character alphanumeric nonce (EIP-4361 asks for at least 8), drawn without modulo bias. */
export function makeNonce(bytes: (n: number) => Uint8Array): string {
  let nonce = '';
  while (nonce.length < NONCE_LENGTH) {
    for (const b of bytes(NONCE_LENGTH)) {
      // 248 = 4 × 62: bytes above it would favour the first letters.
      if (b < 248 && nonce.length < NONCE_LENGTH) nonce += ALPHANUMERIC[b % 62];
    }
  }
  return nonce;
}

/** The message text in the EIP-4361 ABNF layout. */
export function buildSiweMessage(m: SiweMessage): string {
  const lines = [`${m.domain} wants you to sign in with your Ethereum account:`, m.address, ''];
  if (m.statement !== undefined) lines.push(m.statement, '');
  lines.push(`URI: ${m.uri}`, `Version: ${m.version}`, `Chain ID: ${m.chainId}`, `Nonce: ${m.nonce}`, `Issued At: ${m.issuedAt}`);
  if (m.expirationTime !== undefined) lines.push(`Expiration Time: ${m.expirationTime}`);
  if (m.requestId !== undefined) lines.push(`Request ID: ${m.requestId}`);
  return lines.join('\n');
}

const MESSAGE = new RegExp(
  [
    '^(?<domain>[^\\s/]+) wants you to sign in with your Ethereum account:',
    '(?<address>0x[0-9a-fA-F]{40})',
    '',
    '(?:(?<statement>[^\\n]*)\\n\\n)?URI: (?<uri>\\S+)',
    'Version: (?<version>1)',
    'Chain ID: (?<chainId>\\d+)',
    'Nonce: (?<nonce>[a-zA-Z0-9]{8,})',
    'Issued At: (?<issuedAt>\\S+)',
  ].join('\\n') + '(?:\\nExpiration Time: (?<expirationTime>\\S+))?(?:\\nRequest ID: (?<requestId>[^\\n]*))?$',
);

/** Reads a message this module built (the fields it uses), or undefined when `text` is not one. */
export function parseSiweMessage(text: string): SiweMessage | undefined {
  const g = MESSAGE.exec(text)?.groups;
  if (!g) return undefined;
  return {
    domain: g.domain!,
    address: g.address!,
    ...(g.statement !== undefined && { statement: g.statement }),
    uri: g.uri!,
    version: '1',
    chainId: Number(g.chainId),
    nonce: g.nonce!,
    issuedAt: g.issuedAt!,
    ...(g.expirationTime !== undefined && { expirationTime: g.expirationTime }),
    ...(g.requestId !== undefined && { requestId: g.requestId }),
  };
}

export interface ChallengeInput {
  address: string;
  chainId: number;
  statement: string;
  nonce: string;
  issuedAt: number;
  expiresAt: number;
  requestId?: string;
}

/** A challenge as served on the wire: base64 of the EIP-4361 message's UTF-8 bytes. */
export function encodeChallenge(c: ChallengeInput): string {
  const text = buildSiweMessage({
    domain: SIWE_DOMAIN,
    address: c.address,
    statement: c.statement,
    uri: SIWE_URI,
    version: '1',
    chainId: c.chainId,
    nonce: c.nonce,
    issuedAt: iso(c.issuedAt),
    expirationTime: iso(c.expiresAt),
    ...(c.requestId !== undefined && { requestId: c.requestId }),
  });
  return Buffer.from(text, 'utf8').toString('base64');
}
