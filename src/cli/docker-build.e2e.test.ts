import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../testing/spawn.js';

// No Docker engine runs here, so the image's build stage is replayed by hand: only the files its
// COPY lines bring in, then its `npm run build` (production dependencies linked from this checkout).
// The build must succeed there and leave the bundle and its code cache for the runtime stage.
const dir = mkdtempSync(join(tmpdir(), 'card-sandbox-image-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The build stage's `COPY <source…> <destination>` lines (from the context, not other stages) and RUN commands. */
function buildStage(dockerfile: string): { copies: { from: string; to: string }[]; runs: string[] } {
  const stage = dockerfile.split(/^FROM /m).find((s) => /^\S+ AS build\s*$/m.test(s.split('\n')[0] ?? ''));
  if (!stage) throw new Error('the Dockerfile has no build stage');
  const lines = stage.split('\n').map((l) => l.trim());
  const copies = lines
    .filter((l) => l.startsWith('COPY ') && !l.includes('--from'))
    .flatMap((l) => {
      const [, ...args] = l.split(/\s+/);
      const to = args.pop()!;
      // Several sources go into a directory; one source is copied to the destination itself.
      return args.map((from) => ({ from, to: args.length > 1 || to.endsWith('/') ? join(to, from) : to }));
    });
  const runs = lines.filter((l) => l.startsWith('RUN ')).map((l) => l.slice(4));
  return { copies, runs };
}

test("the image's build stage has what `npm run build` needs", () => {
  const { copies, runs } = buildStage(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
  expect(runs).toContain('npm run build');
  for (const { from, to } of copies) cpSync(join(ROOT, from), join(dir, to), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'pipe' });
  expect(existsSync(join(dir, 'dist', 'card-sandbox.cjs'))).toBe(true);
  expect(existsSync(join(dir, 'dist', 'card-sandbox.cjs.cache'))).toBe(true);
}, 180_000);
