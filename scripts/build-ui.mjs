// Builds the inspector (ui/, docs/inspector.md: The inspector) into dist/ui: its page, one minified script
// (Preact and the page's own code), one stylesheet and an icon, for Chrome 123, Firefox 120 and
// Safari 17.5 or later (its colours use CSS light-dark()).
// The sandbox reads them only when the page is first opened. Fails when the gzipped files exceed
// 150 KB, the budget the page is held to.
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const OUT = 'dist/ui';
const BUDGET = 150 * 1024;

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await build({
  entryPoints: { app: 'ui/main.tsx', 'app-style': 'ui/style.css' },
  outdir: OUT,
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome123', 'firefox120', 'safari17.5'],
  tsconfig: 'ui/tsconfig.json',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  entryNames: '[name]',
});
// One stylesheet named as the page links it.
copyFileSync(`${OUT}/app-style.css`, `${OUT}/app.css`);
rmSync(`${OUT}/app-style.css`);
for (const file of ['index.html', 'icon.svg']) copyFileSync(`ui/${file}`, `${OUT}/${file}`);

const files = ['index.html', 'app.js', 'app.css', 'icon.svg'];
const sizes = files.map((f) => [f, readFileSync(`${OUT}/${f}`)]);
const raw = sizes.reduce((n, [, b]) => n + b.length, 0);
const gzipped = sizes.reduce((n, [, b]) => n + gzipSync(b, { level: 9 }).length, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
process.stdout.write(`inspector: ${OUT} ${kb(raw)}, ${kb(gzipped)} gzipped (budget ${kb(BUDGET)})\n`);
if (gzipped > BUDGET) throw new Error(`the inspector is ${kb(gzipped)} gzipped, over its ${kb(BUDGET)} budget`);
