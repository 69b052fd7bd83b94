/**
 * An upstream for parity's tests: a second card-sandbox process with credentials and a signing key
 * of its own, none of them the defaults, verifying every request strictly — so that a run that
 * finds no difference has proved it signs, authenticates and assumes nothing. Also its request
 * journal, to see what parity sent it. Not shipped.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningCli } from './spawn.js';

export interface ParityUpstream {
  sandbox: RunningCli;
  apiKey: string;
  apiSecret: string;
  keyId: string;
  /** The PEM files of its signing key. */
  privateKeyFile: string;
  privateKeyPem: string;
  dir: string;
  /** The requests it received, oldest first: method, path (with query) and status. */
  journal(): Promise<{ method: string; path: string; status: number }[]>;
  stop(): Promise<void>;
}

export async function startParityUpstream(): Promise<ParityUpstream> {
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-parity-'));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const privateKeyFile = join(dir, 'client.key');
  const publicKeyFile = join(dir, 'client.pub');
  writeFileSync(privateKeyFile, privateKeyPem);
  writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  const apiKey = randomUUID();
  const apiSecret = `upstream-${randomUUID()}`;
  const keyId = randomUUID();
  const sandbox = await startSandbox([
    '--api-key',
    apiKey,
    '--api-secret',
    apiSecret,
    '--signing-key',
    publicKeyFile,
    '--signing-key-id',
    keyId,
    '--verify',
    'strict',
  ]);
  return {
    sandbox,
    apiKey,
    apiSecret,
    keyId,
    privateKeyFile,
    privateKeyPem,
    dir,
    async journal() {
      const entries = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { method: string; path: string; status: number }[];
      return entries.reverse();
    },
    async stop() {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
