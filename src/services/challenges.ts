/**
 * Ownership challenges shared by customers and accounts: issuing an EIP-4361 message for the
 * customer's wallet (valid 1 h of sandbox time) and checking a signed proof against it. Bad input
 * is refused here; a well-formed proof by the wrong key is reported back, because the caller must
 * store a new challenge before refusing it.
 */
import { iso } from '../domain/instant.js';
import { parseAccountId } from '../domain/caip.js';
import { fail } from '../domain/errors.js';
import { encodeChallenge, makeNonce, parseSiweMessage, SIWE_DOMAIN } from '../domain/siwe.js';
import type { Random } from '../kernel/ids.js';
import type { OwnerSignature } from '../wire/challenge.js';
import { toChecksumAddress } from '../domain/eip55.js';
import { decodeBase64, decodeSignature, recoverPersonalSigner } from '../signatures/eip191.js';

export const CHALLENGE_TTL_MS = 3_600_000;

export interface StoredChallenge {
  challenge: string | null;
  challengeExpiresAt: number | null;
}

export interface ChallengeSubject {
  /** The customer's CAIP-10 wallet, which must sign. */
  wallet: string;
  statement: string;
  requestId?: string;
}

/** A fresh challenge for `subject`, to store on the customer or account. */
export function issueChallenge(random: Random, now: number, subject: ChallengeSubject): { challenge: string; challengeExpiresAt: number } {
  const { reference, address } = parseAccountId(subject.wallet)!;
  const challengeExpiresAt = now + CHALLENGE_TTL_MS;
  const challenge = encodeChallenge({
    address: toChecksumAddress(address),
    chainId: Number(reference),
    statement: subject.statement,
    nonce: makeNonce((n) => random.bytes(n)),
    issuedAt: now,
    expiresAt: challengeExpiresAt,
    ...(subject.requestId !== undefined && { requestId: subject.requestId }),
  });
  return { challenge, challengeExpiresAt };
}

/** Whether the stored challenge can still be served and signed at `now`. */
export const isLive = (stored: StoredChallenge, now: number): boolean =>
  stored.challenge !== null && stored.challengeExpiresAt !== null && now < stored.challengeExpiresAt;

export type ProofOutcome = { ok: true } | { ok: false; detail: string };

/**
 * Checks `proof` against the stored challenge: it must carry the current, unexpired challenge
 * and a well-formed signature (else this throws a 400 and nothing changes); then the EIP-191
 * signer must be `ownerId`'s address and `ownerId` the customer's wallet (case-insensitive).
 */
export function checkProof(stored: StoredChallenge, proof: OwnerSignature, wallet: string, now: number, challengePath: string): ProofOutcome {
  const sent = decodeBase64(proof.challenge);
  if (!sent) fail('invalid_request', 'challenge must be the base64 challenge this sandbox issued', [{ path: 'challenge', message: 'not base64' }]);
  const current = stored.challenge === null ? undefined : decodeBase64(stored.challenge);
  if (!current || !Buffer.from(sent).equals(Buffer.from(current))) {
    const ours = parseSiweMessage(Buffer.from(sent).toString('utf8'))?.domain === SIWE_DOMAIN;
    const why = ours ? 'it has been replaced by a newer challenge' : 'it is not a challenge this sandbox issued';
    fail('invalid_request', `challenge is not the current one: ${why}; GET ${challengePath} serves the current one`, [
      { path: 'challenge', message: 'not the current challenge' },
    ]);
  }
  if (!isLive(stored, now)) {
    fail('challenge_expired', `the challenge expired at ${iso(stored.challengeExpiresAt!)}; GET ${challengePath} serves a fresh one to sign`, [
      { path: 'challenge', message: 'expired' },
    ]);
  }
  const signature = decodeSignature(proof.signature);
  if (!signature) {
    fail('invalid_request', 'signature must be base64 of the 65-byte r‖s‖v signature (v 27/28 or 0/1), or base64 of its 0x-hex text', [
      { path: 'signature', message: 'not a 65-byte r‖s‖v signature' },
    ]);
  }
  const signer = recoverPersonalSigner(sent, signature);
  const owner = parseAccountId(proof.ownerId)?.address;
  const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
  if (!signer || !same(signer, owner)) {
    return { ok: false, detail: `the signature was made by ${signer ?? 'no recoverable key'}, not by ownerId ${proof.ownerId}` };
  }
  if (!same(proof.ownerId, wallet)) {
    return { ok: false, detail: `ownerId ${proof.ownerId} is not the customer's wallet ${wallet}` };
  }
  return { ok: true };
}
