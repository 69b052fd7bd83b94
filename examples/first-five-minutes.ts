// The first five minutes with card-sandbox, on node:crypto alone (plus viem for the customer's
// wallet): get a token, register a signing key, sign requests, create customer → account → card →
// authorisation, and receive and verify a signed webhook. Run it against `card-sandbox start`.
import { createHash, createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';

const BASE = process.env.CARD_SANDBOX_URL ?? 'http://127.0.0.1:4242';

// 1. A token for the default sandbox credentials.
const auth = await fetch(`${BASE}/v1/auth/token`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret' }),
}).then((r) => r.json() as Promise<{ token: string }>);

// 2. A P-384 key pair; register the public key (base64 of its PEM) under a key id of our choosing.
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const keyId = randomUUID();
await fetch(`${BASE}/v1/auth/signing`, {
  method: 'PUT',
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${auth.token}` },
  body: JSON.stringify({ signingKeyId: keyId, signingKey: Buffer.from(publicKey.export({ type: 'spki', format: 'pem' })).toString('base64') }),
});

// 3. Every /v1 call: RFC 9421 signature over method, authority, path (and the RFC 9530
//    Content-Digest when there is a body), raw r||s ECDSA P-384 / SHA-384, and an Idempotency-Key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are plain JSON
async function call(method: string, path: string, body?: unknown): Promise<any> {
  const url = new URL(`/v1${path}`, BASE);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { Authorization: `Bearer ${auth.token}` };
  const components = ['"@method"', '"@authority"', '"@path"'];
  const lines = [`"@method": ${method}`, `"@authority": ${url.host}`, `"@path": ${url.pathname}`];
  if (text !== undefined) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Digest'] = `sha-512=:${createHash('sha512').update(text).digest('base64')}:`;
    components.push('"content-digest"');
    lines.push(`"content-digest": ${headers['Content-Digest']}`);
  }
  if (method !== 'GET') headers['Idempotency-Key'] = randomUUID();
  const params = `(${components.join(' ')});created=${Math.floor(Date.now() / 1000)};keyid="${keyId}";alg="ecdsa-p384-sha384"`;
  lines.push(`"@signature-params": ${params}`);
  const signature = sign('sha384', Buffer.from(lines.join('\n')), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  headers['Signature-Input'] = `sig=${params}`;
  headers['Signature'] = `sig=:${signature.toString('base64')}:`;
  const res = await fetch(url, { method, headers, body: text });
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.status === 204 || res.status === 202 ? undefined : res.json();
}

// 4. A webhook receiver that checks the digest and the signature before trusting a byte.
const { key } = await call('GET', '/webhooks/verification-key');
const webhookKey = createPublicKey(Buffer.from(key, 'base64').toString('utf8'));
const received: Record<string, unknown>[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const digest = `sha-512=:${createHash('sha512').update(raw).digest('base64')}:`;
    const params = String(req.headers['signature-input']).replace(/^sig=/, '');
    const base = [
      `"@method": ${req.method}`,
      `"@authority": ${req.headers.host}`,
      `"@path": ${req.url}`,
      `"content-digest": ${req.headers['content-digest']}`,
      `"@signature-params": ${params}`,
    ].join('\n');
    const sig = Buffer.from(String(req.headers.signature).replace(/^sig=:|:$/g, ''), 'base64');
    const ok = digest === req.headers['content-digest'] && verify('sha384', Buffer.from(base), { key: webhookKey, dsaEncoding: 'ieee-p1363' }, sig);
    if (ok) received.push(JSON.parse(raw.toString('utf8')));
    res.writeHead(ok ? 200 : 400).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
const webhook = await call('PUT', '/webhooks', { callbackUrl, types: ['customer.updated', 'account.updated', 'card.updated', 'authorisation.updated', 'transaction.updated'] });

// 5. A customer, proven by their wallet (EIP-4361 challenge, EIP-191 signature) and verified.
const wallet = privateKeyToAccount(generatePrivateKey());
const customer = await call('POST', '/customers', { chainId: `eip155:11155111:${wallet.address}`, externalId: `user-${randomUUID()}` });
const signChallenge = async (challenge: string) =>
  Buffer.from((await wallet.signMessage({ message: { raw: Buffer.from(challenge, 'base64') } })).slice(2), 'hex').toString('base64');
await call('POST', `/customers/${customer.id}/challenge/sign`, { ownerId: customer.chainId, challenge: customer.challenge, signature: await signChallenge(customer.challenge) });
await call('PATCH', `/simulator/customers/${customer.id}/verify`);

// 6. An account (its deployment is signed by the same wallet), a virtual card, an authorisation.
const account = await call('POST', `/customers/${customer.id}/accounts`, { type: 'card_account', currencies: ['EUR'] });
await call('POST', `/accounts/${account.id}/challenge/sign`, { ownerId: customer.chainId, challenge: account.challenge, signature: await signChallenge(account.challenge) });
while ((await call('GET', `/accounts/${account.id}`)).status !== 'active') await new Promise((r) => setTimeout(r, 250));
const card = await call('POST', `/accounts/${account.id}/cards`, {
  type: 'virtual',
  billingAddress: { firstLine: '1 Main Street', city: 'London', country: 'GB', postCode: 'N1 1AA' },
});
await call('PATCH', `/simulator/cards/${card.id}/issue`);
const authorisation = await call('POST', `/simulator/cards/${card.id}/authorisation`, { amount: '12.50', currency: 'USD' });
console.log(`authorised ${authorisation.merchantAmount} ${authorisation.merchantCurrency} = ${authorisation.amount} ${authorisation.currency}`);

// 7. Captured about a second later, then settled: watch the verified webhooks arrive. Each delivery
//    travels on its own, so two can arrive out of order: the resource's updatedAt tells the order. An
//    automatic capture passes through capturing to captured in one instant; for such a tie, the lifecycle does.
const lifecycle = ['pending', 'capturing', 'captured', 'processing', 'processed'];
const step = (e: Record<string, unknown>) => lifecycle.indexOf(String(e.status));
while (!received.some((e) => e.webhookType === 'transaction.updated' && e.status === 'processed')) await new Promise((r) => setTimeout(r, 250));
received.sort((a, b) => String(a.updatedAt).localeCompare(String(b.updatedAt)) || step(a) - step(b));
for (const event of received) console.log(`verified ${event.webhookType} ${event.status}`);

// 8. Clean up: without its subscription the sandbox would retry every later event against a closed port for 24 h.
await call('DELETE', `/webhooks/${webhook.id}`);
receiver.close();
