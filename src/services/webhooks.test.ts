/**
 * The webhook verification key: made once and kept in the database, or read from
 * --webhook-key, with a clear start-up error for a file that is missing or not a P-384 private key.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyFingerprintId, pkcs8Pem, spkiPem } from '../signatures/keys.js';
import { openStore } from '../store/store.js';
import { createTestSandbox } from '../testing/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the webhook verification key', () => {
  it('is made on first start, kept in the database, and the same when the database is opened again', () => {
    const db = join(dir, 'kept.db');
    const first = createTestSandbox({ db }, { store: openStore(db) });
    const key = first.deps.services.webhooks.verificationKey();
    first.deps.store.close();
    const second = createTestSandbox({ db }, { store: openStore(db) });
    expect(second.deps.services.webhooks.verificationKey()).toEqual(key);
    second.deps.store.close();
    expect(createTestSandbox().deps.services.webhooks.verificationKey().keyId).not.toBe(key.keyId);
  });

  it('is read from --webhook-key, with the keyId derived from the public key, over any kept one', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const path = file('p384.pem', pkcs8Pem(privateKey));
    const sec1 = file('p384-sec1.pem', privateKey.export({ type: 'sec1', format: 'pem' }).toString());
    const expected = { keyId: keyFingerprintId(publicKey), key: Buffer.from(spkiPem(publicKey)).toString('base64') };
    expect(createTestSandbox({ webhookKey: path }).deps.services.webhooks.verificationKey()).toEqual(expected);
    expect(createTestSandbox({ webhookKey: sec1 }).deps.services.webhooks.verificationKey()).toEqual(expected);
  });

  it('refuses to start with a --webhook-key that cannot be read or is not a P-384 private key', () => {
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.pem'), /--webhook-key .*missing\.pem: cannot read the file \(ENOENT\)/],
      [file('p256.pem', pkcs8Pem(p256.privateKey)), /--webhook-key .*p256\.pem: the key is an EC key on prime256v1, not ECDSA P-384/],
      [file('rsa.pem', pkcs8Pem(rsa.privateKey)), /the key is a rsa key, not ECDSA P-384/],
      [file('public.pem', spkiPem(p384.publicKey)), /--webhook-key .*public\.pem: the file is not a PEM private key/],
      [file('junk.pem', 'hello'), /the file is not a PEM private key; make one with `openssl ecparam -name secp384r1/],
    ];
    for (const [path, message] of cases) expect(() => createTestSandbox({ webhookKey: path })).toThrow(message);
  });
});
