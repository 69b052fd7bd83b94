/**
 * The parity phase: how long `card-sandbox parity` takes against an upstream on this machine — a
 * second sandbox with credentials and a signing key of its own, verifying strictly — from spawning
 * the command to its exit, with the sandbox it compares with started in its own process (the
 * default). Most of a run is the journey's own waits: the account's 2 s deployment and the
 * payments' 1 s captures and settlements, polled until reached.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/load.mjs';
import { ROOT, startSandbox } from '../lib/sandbox.mjs';

const BIN = fileURLToPath(new URL('../../bin/card-sandbox.cjs', import.meta.url));
export const PARITY_RUNS = 3;

/** One `parity … --json` run to its exit: its wall time, exit code and report. */
function runParity(args) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('CARD_SANDBOX_')));
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'parity', ...args, '--json'], { cwd: ROOT, env: { ...base, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      let report;
      try {
        report = JSON.parse(stdout);
      } catch {
        report = undefined;
      }
      resolve({ seconds, code, report, stderr });
    }),
  );
}

export async function parityRuns(nodeArgs = []) {
  const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-bench-parity-'));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  writeFileSync(join(dir, 'client.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'client.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  const [apiKey, apiSecret, keyId] = [randomUUID(), `bench-${randomUUID()}`, randomUUID()];
  const upstream = await startSandbox(
    ['--api-key', apiKey, '--api-secret', apiSecret, '--signing-key', join(dir, 'client.pub'), '--signing-key-id', keyId, '--verify', 'strict'],
    { nodeArgs },
  );
  try {
    const args = [
      '--upstream',
      `${upstream.url}/v1`,
      '--api-key',
      apiKey,
      '--api-secret',
      apiSecret,
      '--signing-key',
      join(dir, 'client.key'),
      '--signing-key-id',
      keyId,
    ];
    const runs = [];
    for (let i = 0; i < PARITY_RUNS; i++) runs.push(await runParity(args));
    const failed = runs.find((r) => r.code !== 0 || r.report === undefined);
    return {
      medianSeconds: median(runs.map((r) => r.seconds)),
      runsSeconds: runs.map((r) => r.seconds),
      steps: runs[0].report?.summary.steps,
      differing: runs.map((r) => r.report?.summary.differing ?? NaN),
      ...(failed && { error: `exit ${failed.code}: ${failed.stderr.trim().split('\n').at(-1)}` }),
    };
  } finally {
    await upstream.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
