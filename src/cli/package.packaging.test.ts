import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { PREBUILT_TARGETS } from '../store/sqlite-addon.js';
import { manualResources } from '../testing/mcp.js';
import { freePort, ROOT } from '../testing/spawn.js';
import { HUNG_MS } from '../testing/wait.js';

// What `npm pack` ships must run on its own, with no node_modules (it has no dependencies: README:
// Quick start): the packed files, started with the Docker image's exact command
// (`start --host 0.0.0.0 --db /data/sandbox.db`, a file database), reach a healthy answer.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(
  'the packed tarball ships only what it needs and starts as the image starts it',
  async () => {
    // The run's one packed tarball (src/testing/packed.ts).
    const packed = inject('packed');
    const top = new Set(packed.files.map((f) => f.split('/')[0]));
    expect([...top].sort()).toEqual(['LICENSE', 'README.md', 'SKILL.md', 'bin', 'dist', 'docs', 'drizzle', 'fixtures', 'package.json']);
    // The manual's pages, which `card-sandbox mcp` serves, and none of its screenshots.
    const pages = readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort();
    expect(packed.files.filter((p) => p.startsWith('docs/')).sort()).toEqual(pages.map((f) => `docs/${f}`));
    // The bundles, their declarations and SQLite's addons; none of the compiled modules they are made of.
    expect(new Set(packed.files.filter((f) => f.startsWith('dist/')).map((f) => f.split('/').slice(0, 2).join('/')))).toEqual(
      new Set(['dist/card-sandbox.cjs', 'dist/card-sandbox.cjs.cache', 'dist/lib', 'dist/mcp.cjs', 'dist/migrated.sqlite', 'dist/prebuilds', 'dist/ui']),
    );
    expect(
      packed.files
        .filter((f) => f.startsWith('dist/prebuilds/'))
        .map((f) => f.slice('dist/prebuilds/'.length).replace('.node', ''))
        .sort(),
    ).toEqual([...PREBUILT_TARGETS].sort());
    // The inspector's files (docs/inspector.md: The inspector), and nothing of its sources.
    expect(packed.files.filter((p) => p.startsWith('dist/ui/')).sort()).toEqual([
      'dist/ui/app.css',
      'dist/ui/app.js',
      'dist/ui/icon.svg',
      'dist/ui/index.html',
    ]);

    execFileSync('tar', ['-xzf', packed.tarball, '-C', dir]);
    const app = join(dir, 'package');
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/card-sandbox.cjs', 'start', '--host', '0.0.0.0', '--port', String(port), '--db', join(dir, 'sandbox.db')], {
      cwd: app,
      stdio: 'ignore',
    });
    try {
      let health: Record<string, unknown> | undefined;
      // Until it answers; the limit only says "hung", whatever the machine's load.
      for (const deadline = Date.now() + HUNG_MS; !health && Date.now() < deadline;) {
        health = await fetch(`http://127.0.0.1:${port}/_sandbox/health`).then(
          (r) => (r.ok ? (r.json() as Promise<Record<string, unknown>>) : undefined),
          () => undefined,
        );
        if (!health) await new Promise((r) => setTimeout(r, 50));
      }
      expect(health).toMatchObject({ status: 'ok', env: 'sandbox', verify: 'warn' });
      expect(existsSync(join(dir, 'sandbox.db'))).toBe(true);
      const page = await fetch(`http://127.0.0.1:${port}/_sandbox/ui/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/_sandbox/ui/app.js');
      // `card-sandbox mcp` from the installed package serves the README and every page of the manual.
      const manual = await manualResources(app, `http://127.0.0.1:${port}`);
      expect([...manual.keys()]).toEqual(['README.md', ...pages.map((f) => `docs/${f}`)].map((f) => `card-sandbox://${f}`));
      for (const file of ['README.md', ...pages.map((f) => `docs/${f}`)])
        expect(manual.get(`card-sandbox://${file}`), file).toBe(readFileSync(join(ROOT, file), 'utf8'));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    expect(readdirSync(dir)).toContain('sandbox.db');
  },
  2 * HUNG_MS,
);
