import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { manualResources } from '../testing/mcp.js';
import { freePort, ROOT } from '../testing/spawn.js';

// The image is built for real by scripts/image-check.sh where an engine runs. Here, without one,
// its two stages are replayed from the Dockerfile itself: the build stage's COPY lines and RUN
// commands (dependencies linked from this checkout instead of `npm ci`), then the runtime stage's
// COPY lines, and the runtime is started with the image's own command. It must serve, with only
// what the runtime stage copies: the bundle, the inspector's files and one SQLite addon.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-image-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Copy {
  from: string;
  to: string;
  stage?: string;
}

/** The files of the build context (this checkout) a source with a `*` in its last part matches. */
function matching(source: string): string[] {
  const name = new RegExp(
    `^${source
      .split('/')
      .pop()!
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*')}$`,
  );
  return readdirSync(join(ROOT, dirname(source)))
    .filter((f) => name.test(f))
    .map((f) => join(dirname(source), f));
}

/** One stage's COPY lines (`--from=<stage>` kept), RUN commands and the exec-form CMD. */
function stage(dockerfile: string, name: string) {
  const text = dockerfile.split(/^FROM /m).find((s) => new RegExp(`^\\S+ AS ${name}\\s*$`, 'm').test(s.split('\n')[0] ?? ''));
  if (!text) throw new Error(`the Dockerfile has no ${name} stage`);
  // Continued lines (ending in a backslash) are one instruction.
  const lines = text
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.trim());
  const copies: Copy[] = lines
    .filter((l) => l.startsWith('COPY '))
    .flatMap((l) => {
      const args = l.split(/\s+/).slice(1);
      const from = args[0]!.startsWith('--from=') ? args.shift()!.slice('--from='.length) : undefined;
      const to = args.pop()!;
      // A `*` in a source from the build context names every file it matches (docs/*.md).
      const sources = args.flatMap((source) => (from || !source.includes('*') ? [source] : matching(source)));
      // Several sources go into a directory; one source is copied to the destination itself.
      return sources.map((source) => ({
        from: source,
        to: sources.length > 1 || to.endsWith('/') ? join(to, source.split('/').pop()!) : to,
        ...(from && { stage: from }),
      }));
    });
  const runs = lines.filter((l) => l.startsWith('RUN ')).map((l) => l.slice(4));
  const cmd = lines.find((l) => l.startsWith('CMD '));
  return { copies, runs, cmd: cmd ? (JSON.parse(cmd.slice(4)) as string[]) : [] };
}

test("the image's stages, replayed, build a runtime that serves with only what it copies", async () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const build = join(dir, 'build');
  const runtime = join(dir, 'runtime');
  const { copies, runs } = stage(dockerfile, 'build');
  for (const { from, to } of copies) cpSync(join(ROOT, from), join(build, to), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(build, 'node_modules'));
  expect(runs[0]).toBe('npm ci');
  expect(runs).toContain('npm run build');
  for (const command of runs.slice(1)) execFileSync('sh', ['-c', command], { cwd: build, stdio: 'pipe' });

  const image = stage(dockerfile, 'runtime');
  for (const { from, to, stage: source } of image.copies) {
    // WORKDIR is /app in both stages.
    const origin = source === 'build' ? join(build, from.replace(/^\/app\//, '')) : join(ROOT, from);
    const target = join(runtime, to.replace(/^\/app\//, ''));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(origin, target, { recursive: true });
  }
  expect(existsSync(join(runtime, 'node_modules'))).toBe(false);
  expect(readdirSync(join(runtime, 'dist')).sort()).toEqual(['card-sandbox.cjs', 'card-sandbox.cjs.cache', 'mcp.cjs', 'migrated.sqlite', 'prebuilds', 'ui']);
  expect(readdirSync(join(runtime, 'dist', 'prebuilds'))).toEqual([`linux-${process.arch}.node`]);
  // The manual's pages, which `card-sandbox mcp` serves, and none of its screenshots.
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  expect(readdirSync(join(runtime, 'docs')).sort()).toEqual(pages);

  // The image's command, with the database where /data would be and a free port.
  const port = await freePort();
  mkdirSync(join(dir, 'data'));
  const args = image.cmd.map((a) => a.replace('/data/', `${join(dir, 'data')}/`));
  expect(args).toEqual(['start', '--host', '0.0.0.0', '--db', join(dir, 'data', 'sandbox.db')]);
  const child = spawn(process.execPath, ['bin/card-sandbox.cjs', ...args, '--port', String(port)], { cwd: runtime, stdio: 'ignore' });
  try {
    const health = execFileSync(process.execPath, ['bin/card-sandbox.cjs', 'health', '--port', String(port), '--wait', '20s', '--json'], {
      cwd: runtime,
      encoding: 'utf8',
    });
    expect(JSON.parse(health)).toMatchObject({ status: 'ok' });
    expect(existsSync(join(dir, 'data', 'sandbox.db'))).toBe(true);
    // The inspector (docs/inspector.md: The inspector), page and script, from the image's files alone.
    const page = await fetch(`http://127.0.0.1:${port}/_sandbox/ui/`);
    expect(page.status).toBe(200);
    const script = (await page.text()).match(/src="([^"]+\.js)"/)![1]!;
    expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
    // `card-sandbox mcp` in the image serves the README and every page of the manual.
    const manual = await manualResources(runtime, `http://127.0.0.1:${port}`);
    expect([...manual.keys()]).toEqual(['README.md', ...pages.map((f) => `docs/${f}`)].map((f) => `card-sandbox://${f}`));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}, 180_000);
