/**
 * Ethereum `personal_sign` (EIP-191 version 0x45) signatures: the message hash, signer recovery
 * from a 65-byte r‖s‖v signature with secp256k1, and EIP-55 checksummed addresses. This is how a
 * customer's wallet proves it owns its address when signing a challenge.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak256 } from '../domain/keccak.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { toChecksumAddress } from '../domain/eip55.js';

/** EIP-191: keccak-256("\x19Ethereum Signed Message:\n" ‖ decimal byte length ‖ message). */
export function personalMessageHash(message: Uint8Array): Uint8Array {
  const prefix = utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`);
  return keccak256(new Uint8Array([...prefix, ...message]));
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX_SIGNATURE = /^(?:0x)?[0-9a-fA-F]{130}$/;

/** Strict base64 (RFC 4648 §4) to bytes, or undefined when `text` is not base64. */
export function decodeBase64(text: string): Uint8Array | undefined {
  return BASE64.test(text) ? new Uint8Array(Buffer.from(text, 'base64')) : undefined;
}

/**
 * Reads a signature as integrators send it: base64 of the 65 raw bytes r‖s‖v, base64 of the
 * 0x-hex text wallets return, or that hex text itself. Returns the 65 bytes with v as 27/28 or
 * 0/1, or undefined when it is none of these.
 */
export function decodeSignature(text: string): Uint8Array | undefined {
  let bytes: Uint8Array | undefined;
  if (HEX_SIGNATURE.test(text)) bytes = hexToBytes(text.replace(/^0x/, ''));
  else {
    const decoded = decodeBase64(text);
    const asText = decoded && Buffer.from(decoded).toString('latin1');
    bytes = asText !== undefined && HEX_SIGNATURE.test(asText) ? hexToBytes(asText.replace(/^0x/, '')) : decoded;
  }
  if (bytes?.length !== 65) return undefined;
  return [0, 1, 27, 28].includes(bytes[64]!) ? bytes : undefined;
}

/**
 * The checksummed address whose key made `signature` (65 bytes from `decodeSignature`) over
 * `message` with personal_sign, or undefined when no key could have (r or s out of range).
 * Like Ethereum's ecrecover, high-s signatures are accepted.
 */
export function recoverPersonalSigner(message: Uint8Array, signature: Uint8Array): string | undefined {
  const v = signature[64]! >= 27 ? signature[64]! - 27 : signature[64]!;
  // noble's "recovered" format puts the recovery bit first: v ‖ r ‖ s.
  const recovered = new Uint8Array([v, ...signature.subarray(0, 64)]);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, personalMessageHash(message), { prehash: false });
    return addressOfPublicKey(secp256k1.Point.fromBytes(publicKey).toBytes(false));
  } catch {
    return undefined;
  }
}

/** The EIP-55 address of a secp256k1 private key (32 bytes). */
export function addressOf(privateKey: Uint8Array): string {
  return addressOfPublicKey(secp256k1.getPublicKey(privateKey, false));
}

/** The EIP-55 address of an uncompressed secp256k1 public key: the last 20 bytes of its Keccak-256. */
const addressOfPublicKey = (uncompressed: Uint8Array): string => toChecksumAddress(keccak256(uncompressed.subarray(1)).subarray(12));

/**
 * personal_sign of `message` with a secp256k1 private key: the 65 bytes r‖s‖v with v 27 or 28, as
 * wallets produce them (deterministic k, RFC 6979; low s).
 */
export function signPersonal(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  // noble's "recovered" format puts the recovery bit first: v ‖ r ‖ s.
  const recovered = secp256k1.sign(personalMessageHash(message), privateKey, { prehash: false, format: 'recovered' });
  return new Uint8Array([...recovered.subarray(1), recovered[0]! + 27]);
}
