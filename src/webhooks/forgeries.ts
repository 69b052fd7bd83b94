/**
 * The delivery lab's forgeries (docs/webhooks.md: Forged deliveries): what each kind of forged
 * delivery carries in place of a genuine one's body and signature headers. Every kind but
 * `body-changed` carries the genuine body with its genuine Content-Digest, so that a receiver which
 * checks the digest first still has its signature check tried. The other key is made once per
 * process and published nowhere.
 */
import type { KeyObject } from 'node:crypto';
import type { Forgery } from '../domain/webhook-faults.js';
import { generateP384, keyFingerprintId } from '../signatures/keys.js';
import { signatureBase, signatureInputFor, signBaseOnPool, type SignedMessage } from '../signatures/message.js';

/** How far `created-past` and `created-future` put `created` from now, and how long after signing a `replayed` delivery comes again. */
export const CREATED_PAST_S = 86_400;
export const CREATED_FUTURE_S = 3_600;
export const REPLAYED_AFTER_S = 600;

interface Signer {
  keyId: string;
  privateKey: KeyObject;
}

let stranger: Signer | undefined;
/** A P-384 key nobody published, with a keyid of its own. */
const strangerKey = (): Signer => {
  if (!stranger) {
    const { privateKey, publicKey } = generateP384();
    stranger = { keyId: keyFingerprintId(publicKey), privateKey };
  }
  return stranger;
};

/** The body after signing: the signed one with a byte more, so its Content-Digest no longer matches. */
export const changedBody = (body: Buffer): Buffer => Buffer.concat([body, Buffer.from('\n')]);

/** What a forged attempt sends: its body, and its Signature-Input and Signature headers (none for `unsigned`). */
export interface Forged {
  body: Buffer;
  signature: Record<string, string>;
}

/**
 * The forgery of `kind` for a delivery whose genuine form is `message` and `body`, signed by `signer`
 * at `created` (UNIX seconds). Signed afresh, never from the signatures kept for genuine attempts.
 */
export async function forge(
  kind: Forgery,
  message: SignedMessage,
  components: readonly string[],
  body: Buffer,
  signer: Signer,
  created: number,
): Promise<Forged> {
  const signed = async (by: Signer, keyId: string, at: number): Promise<Record<string, string>> => {
    const { serialisedParams, signatureInput } = signatureInputFor(components, { keyId, created: at });
    const bytes = await signBaseOnPool(signatureBase(message, components, serialisedParams), by.privateKey);
    return { 'Signature-Input': signatureInput, Signature: `sig=:${bytes.toString('base64')}:` };
  };
  switch (kind) {
    case 'body-changed':
      return { body: changedBody(body), signature: await signed(signer, signer.keyId, created) };
    case 'other-key':
      return { body, signature: await signed(strangerKey(), signer.keyId, created) };
    case 'unknown-keyid':
      return { body, signature: await signed(strangerKey(), strangerKey().keyId, created) };
    case 'created-past':
      return { body, signature: await signed(signer, signer.keyId, created - CREATED_PAST_S) };
    case 'created-future':
      return { body, signature: await signed(signer, signer.keyId, created + CREATED_FUTURE_S) };
    case 'unsigned':
      return { body, signature: {} };
    case 'replayed':
      return { body, signature: await signed(signer, signer.keyId, created - REPLAYED_AFTER_S) };
  }
}
