/**
 * Card numbers for issued sandbox cards: a network BIN, random digits and a Luhn check digit
 * (ISO/IEC 7812-1 Annex B); only the masked form (first six, `******`, last four) is kept.
 * Also the expiry date printed on a card and the instant it stops being valid.
 */
import { z } from 'zod';
import { MAX_INSTANT } from './instant.js';

export const NETWORKS = ['visa', 'mastercard'] as const;
export type Network = (typeof NETWORKS)[number];

/** Six-digit BINs inside each network's range (Visa 4…, Mastercard 51–55), used for every sandbox card. */
export const NETWORK_BIN: Record<Network, string> = { visa: '431940', mastercard: '536127' };

const PAN_LENGTH = 16;
const VALID_FOR_YEARS = 3;
const LAST_YEAR = new Date(MAX_INSTANT).getUTCFullYear();

/** The Luhn check digit for `payload` (the PAN without its last digit). */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    // Double every second digit counting from the right of the payload, starting with its last.
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** A 16-digit Luhn-valid PAN on `network`'s BIN; `bytes` supplies the randomness. */
export function generatePan(network: Network, bytes: (n: number) => Uint8Array): string {
  const bin = NETWORK_BIN[network];
  const count = PAN_LENGTH - bin.length - 1;
  const digits = [...bytes(count)].map((b) => String(b % 10)).join('');
  const payload = bin + digits;
  return payload + String(luhnCheckDigit(payload));
}

export const maskPan = (pan: string): string => `${pan.slice(0, 6)}******${pan.slice(-4)}`;

/**
 * `MM/YYYY` of the month `VALID_FOR_YEARS` after `issuedAt` (UTC), and never past December 9999,
 * the last month of the sandbox's range of time (docs/control-plane.md: The range of time).
 */
export function expirationDate(issuedAt: number): string {
  const d = new Date(issuedAt);
  const year = d.getUTCFullYear() + VALID_FOR_YEARS;
  return year > LAST_YEAR ? `12/${LAST_YEAR}` : `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${year}`;
}

/** What an expiry date is: `MM/YYYY`, its year one of the sandbox's range of time. */
export const ExpirationDate = z.string().regex(/^(?:0[1-9]|1[0-2])\/(?:19[7-9]\d|[2-9]\d{3})$/, 'must be a month and year as MM/YYYY, such as 03/2029');

/** The first instant after the expiry month `MM/YYYY` ends (UTC): when the card stops working; the range's last instant for December 9999. */
export function expiresAt(expiration: string): number {
  const [month, year] = expiration.split('/').map(Number) as [number, number];
  return Math.min(Date.UTC(year, month, 1), MAX_INSTANT);
}
