/**
 * An upstream for parity's tests: a second card-sandbox process with credentials and a signing key
 * of its own, none of them the defaults, verifying every request strictly — so that a run that
 * finds no difference has proved it signs, authenticates and assumes nothing. Also its request
 * journal, to see what parity sent it. Not shipped.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
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

/**
 * An upstream that misbehaves at the HTTP level, for what parity must survive: `redirect` answers
 * every request with a 307 to `target` (which records what reaches it), `huge` answers the token
 * request with an endless body, `hang` takes the token and the signing key and then never answers again. Records how
 * many bytes it wrote and whether the client went away.
 */
export async function startHostileUpstream(behaviour: 'redirect' | 'huge' | 'hang') {
  const seen: string[] = [];
  const received: string[] = [];
  let written = 0;
  let closed = 0;
  const target = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.end();
  });
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.on('close', () => closed++);
    if (behaviour === 'redirect') return res.writeHead(307, { Location: `${url(target)}${req.url}` }).end();
    // The token and the signing key are taken; nothing after them is answered.
    if (behaviour === 'hang' && req.url === '/v1/auth/token')
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token: 't', expiresIn: 3600 }));
    if (behaviour === 'hang' && req.url === '/v1/auth/signing') return res.writeHead(204).end();
    if (behaviour === 'hang') return;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const chunk = Buffer.alloc(1_048_576, 'x');
    const more = () => {
      while (!res.destroyed && written < 1_073_741_824) {
        written += chunk.length;
        if (!res.write(chunk)) return res.once('drain', more);
      }
    };
    more();
  });
  const url = (s: typeof server) => `http://127.0.0.1:${(s.address() as { port: number }).port}`;
  await Promise.all([server, target].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  return {
    url: `${url(server)}/v1`,
    /** What reached the host the redirects point to. */
    seen,
    /** What reached this upstream. */
    received,
    get written() {
      return written;
    },
    get closed() {
      return closed;
    },
    close: () => Promise.all([server, target].map((s) => (s.closeAllConnections(), new Promise((resolve) => s.close(resolve))))),
  };
}
