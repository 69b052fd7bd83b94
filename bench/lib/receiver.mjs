/**
 * A loopback webhook receiver (node:http) answering every POST with a fixed status. It counts
 * requests, distinct events (Sandbox-Event-Id) and signatures seen before, timestamps the first and last delivery, and
 * checks the RFC 9421 signature and RFC 9530 digest of a sample with node:crypto, so the rate
 * measured is a rate of properly signed deliveries.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import http from 'node:http';

const SAMPLE_EVERY = 50;

/** Why the delivery's signature or digest does not hold, or undefined (RFC 9421 §2.5, §3.2). */
export function signatureProblem(req, body, publicKey) {
  const input = req.headers['signature-input'] ?? '';
  const signature = /^sig=:([^:]+):$/.exec(req.headers.signature ?? '')?.[1];
  const digest = `sha-512=:${createHash('sha512').update(body).digest('base64')}:`;
  if (req.headers['content-digest'] !== digest) return 'Content-Digest does not match the body';
  if (!input.startsWith('sig=(') || !signature) return 'no sig member in Signature-Input / Signature';
  const base = [
    `"@method": ${req.method}`,
    `"@authority": ${req.headers.host}`,
    `"@path": ${req.url.split('?')[0]}`,
    `"content-digest": ${req.headers['content-digest']}`,
    `"@signature-params": ${input.slice(4)}`,
  ].join('\n');
  const ok = verify('sha384', Buffer.from(base), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64'));
  return ok ? undefined : 'the signature does not verify';
}

/** Starts the receiver; `status` is what it answers. `verificationKey` is GET /v1/webhooks/verification-key's `key`, set later. */
export async function startReceiver(status) {
  // `reused`: requests whose Signature header an earlier request carried (the sandbox reuses a
  // signature only for the same signature base within one second, e.g. a quick retry).
  const stats = { requests: 0, events: new Set(), first: undefined, last: undefined, checked: 0, problems: [], signatures: new Set(), reused: 0 };
  let publicKey;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const now = performance.now();
      stats.requests++;
      stats.first ??= now;
      stats.last = now;
      stats.events.add(req.headers['sandbox-event-id']);
      if (stats.signatures.has(req.headers.signature)) stats.reused++;
      else stats.signatures.add(req.headers.signature);
      if (publicKey && stats.requests % SAMPLE_EVERY === 1) {
        const problem = signatureProblem(req, Buffer.concat(chunks), publicKey);
        stats.checked++;
        if (problem) stats.problems.push(problem);
      }
      res.writeHead(status, { 'Content-Length': '0' });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    stats,
    verifyWith(base64Pem) {
      publicKey = createPublicKey(Buffer.from(base64Pem, 'base64').toString('utf8'));
    },
    /** Resolves when `predicate(stats)` holds, or with false after `timeoutMs`. */
    async until(predicate, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (!predicate(stats)) {
        if (performance.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 5));
      }
      return true;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
