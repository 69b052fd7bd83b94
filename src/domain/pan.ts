/**
 * Card numbers for issued sandbox cards: a network BIN, random digits and a Luhn check digit
 * (ISO/IEC 7812-1 Annex B); only the masked form (first six, `******`, last four) is kept.
 * Also the expiry date printed on a card and the instant it stops being valid.
 */
export const NETWORKS = ['visa', 'mastercard'] as const;
export type Network = (typeof NETWORKS)[number];

/** Six-digit BINs inside each network's range (Visa 4…, Mastercard 51–55), used for every sandbox card. */
export const NETWORK_BIN: Record<Network, string> = { visa: '431940', mastercard: '536127' };

const PAN_LENGTH = 16;
const VALID_FOR_YEARS = 3;

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

/** `MM/YYYY` of the month `VALID_FOR_YEARS` after `issuedAt` (UTC). */
export function expirationDate(issuedAt: number): string {
  const d = new Date(issuedAt);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear() + VALID_FOR_YEARS}`;
}

/** The first instant after the expiry month `MM/YYYY` ends (UTC): when the card stops working. */
export function expiresAt(expiration: string): number {
  const [month, year] = expiration.split('/').map(Number) as [number, number];
  return Date.UTC(year, month, 1);
}
