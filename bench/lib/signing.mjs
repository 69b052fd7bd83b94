/**
 * Signed requests for the `--verify strict` phases, made the way an integrator's client makes them:
 * a P-384 key registered with PUT /v1/auth/signing, and RFC 9421 signatures from the independent
 * `http-message-signatures` library. A GET's signature covers only "@method" "@authority" "@path"
 * (no body, so no content-digest) and `created`: a client could send one header set for a whole
 * run (`headerPool`, one per connection, replayed), but real clients sign every request afresh
 * (`freshSignedGets`, each signature sent once).
 */
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { httpbis } from 'http-message-signatures';
import { call } from './sandbox.mjs';

/** A fresh P-384 key pair, registered with the sandbox under a new keyid. */
export async function registerSigningKey(url, token) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const keyId = randomUUID();
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  await call(url, 'PUT', '/v1/auth/signing', { token, body: { signingKeyId: keyId, signingKey: Buffer.from(pem).toString('base64') }, expect: 204 });
  return { keyId, privateKey };
}

/** The headers of a signed GET of `url` + `path`: Host (= the signed @authority), Authorization, Signature-Input, Signature. */
export async function signedGetHeaders(key, url, path, token) {
  const { host } = new URL(url);
  const signer = {
    id: key.keyId,
    alg: 'ecdsa-p384-sha384',
    // RFC 9421 §3.3.5: the signature is the raw r‖s, not DER.
    sign: async (data) => sign('sha384', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }),
  };
  const signed = await httpbis.signMessage(
    { key: signer, fields: ['@method', '@authority', '@path'], params: ['keyid', 'alg', 'created'], paramValues: { created: new Date() } },
    { method: 'GET', url: `${url}${path}`, headers: { Host: host, Authorization: `Bearer ${token}` } },
  );
  return signed.headers;
}

/** One signed header set per connection, for autocannon's setupClient. */
export async function headerPool(key, url, path, token, size) {
  const pool = [];
  for (let i = 0; i < size; i++) pool.push(await signedGetHeaders(key, url, path, token));
  let next = 0;
  return { pool, setupClient: (client) => client.setHeaders(pool[next++ % pool.length]) };
}

/**
 * `count` signed header sets for GET `path`, every signature distinct, made before the load on
 * every core (worker threads): signing while loading would take the cores the sandbox needs.
 * `requests` sends each once, in order; load them with `amount: count`.
 */
export async function freshSignedGets(key, url, path, token, count) {
  const workers = availableParallelism();
  const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' });
  const shares = Array.from({ length: workers }, (_, i) => Math.floor(count / workers) + (i < count % workers ? 1 : 0));
  const parts = await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL('./sign-worker.mjs', import.meta.url), { workerData: { pem, keyId: key.keyId, url, path, token, count: share } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  const pool = parts.flat();
  let next = 0;
  return { requests: [{ method: 'GET', path, setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...pool[next++ % pool.length] } }) }] };
}
