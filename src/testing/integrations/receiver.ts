/**
 * An integrator's webhook receiver, written as one would be outside the sandbox: node:http and
 * node:crypto, a signature base built by hand (RFC 9421 §2.5), and the companion's `processingTally`
 * to tell the sandbox how many times it acted on each event. Done right, it refuses with a 401 any
 * delivery whose digest, signature, keyid or `created` does not hold (or that is not signed), acts
 * once per eventId and answers 200 at once. Each flaw the go-live report must catch can be switched
 * on. For the report's integration tests (docs/go-live.md: Before you go live); not shipped.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { processingTally } from '../../companion/processing.js';

export interface ReceiverFlaws {
  /** Never compares Content-Digest with the body. */
  skipDigest?: boolean;
  /** Never checks the signature's bytes against the key. */
  skipSignature?: boolean;
  /** Checks only signatures that name the keyid it knows; lets others through. */
  trustUnknownKeyid?: boolean;
  /** How old a signature may be, in seconds (300 by default); 0: any age. */
  maxAgeSeconds?: number;
  /** Takes a `created` in the future. */
  allowFuture?: boolean;
  /** Takes a delivery with no signature at all. */
  allowUnsigned?: boolean;
  /** Checks nothing. */
  verifyNothing?: boolean;
  /** Acts on every delivery, repeats included. */
  noDedupe?: boolean;
  /** Answers every delivery this long after it came. */
  answerAfterMs?: number;
  /** Answers every delivery with this status, verified or not. */
  alwaysStatus?: number;
  /** Does not say how many times it acted (no Sandbox-Processed). */
  silent?: boolean;
}

export interface IntegrationReceiver {
  url: string;
  /** Side effects run: once per event is right. */
  readonly acted: number;
  /** Events acted on at least once. */
  readonly events: Set<string>;
  /** Deliveries refused, with why. */
  readonly refused: string[];
  close(): Promise<void>;
}

const INPUT = /^sig=(\(((?:"[^"]+" ?)+)\);created=(-?\d+);keyid="([^"]*)";alg="ecdsa-p384-sha384")$/;
const SKEW_S = 60;

/** Why the delivery does not verify, or undefined when it does (as far as the flaws let it check). */
function refusal(req: http.IncomingMessage, raw: Buffer, key: KeyObject, keyId: string, flaws: ReceiverFlaws): string | undefined {
  if (flaws.verifyNothing) return undefined;
  const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
  const signatureInput = header('signature-input');
  const signature = header('signature');
  if (!flaws.skipDigest && header('content-digest') !== `sha-512=:${createHash('sha512').update(raw).digest('base64')}:`) return 'digest';
  if (!signatureInput || !signature) return flaws.allowUnsigned ? undefined : 'unsigned';
  const input = INPUT.exec(signatureInput);
  const bytes = /^sig=:([A-Za-z0-9+/=]+):$/.exec(signature);
  if (!input || !bytes) return 'malformed signature';
  const [, params, components, created, keyid] = input as unknown as [string, string, string, string, string];
  if (keyid !== keyId) return flaws.trustUnknownKeyid ? undefined : 'unknown keyid';
  const now = Math.floor(Date.now() / 1000);
  const maxAge = flaws.maxAgeSeconds ?? 300;
  if (maxAge > 0 && now - Number(created) > maxAge) return 'too old';
  if (!flaws.allowFuture && Number(created) - now > SKEW_S) return 'from the future';
  if (flaws.skipSignature) return undefined;
  const value = (name: string) =>
    name === '@method' ? req.method : name === '@authority' ? header('host') : name === '@path' ? (req.url ?? '/').split('?')[0] : header(name);
  const base = [
    ...components
      .trim()
      .split(' ')
      .map((c) => `${c}: ${value(c.slice(1, -1))}`),
    `"@signature-params": ${params}`,
  ].join('\n');
  return verify('sha384', Buffer.from(base), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(bytes[1]!, 'base64')) ? undefined : 'bad signature';
}

/** Listens on a free loopback port; `verification` is GET /v1/webhooks/verification-key's answer. */
export async function integrationReceiver(verification: { keyId: string; key: string }, flaws: ReceiverFlaws = {}): Promise<IntegrationReceiver> {
  const key = createPublicKey(Buffer.from(verification.key, 'base64').toString('utf8'));
  const tally = processingTally();
  const events = new Set<string>();
  const refused: string[] = [];
  let acted = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const why = refusal(req, raw, key, verification.keyId, flaws);
      let status = 401;
      let headers: Record<string, string> = {};
      if (why) refused.push(why);
      else {
        const { eventId } = JSON.parse(raw.toString('utf8')) as { eventId: string };
        if (flaws.noDedupe || !events.has(eventId)) {
          events.add(eventId);
          tally.acted(eventId);
          acted++;
        }
        status = 200;
        if (!flaws.silent) headers = tally.headers(eventId);
      }
      const answer = () => res.writeHead(flaws.alwaysStatus ?? status, headers).end();
      if (flaws.answerAfterMs) setTimeout(answer, flaws.answerAfterMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get acted() {
      return acted;
    },
    events,
    refused,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
