// Bundles the compiled CLI (dist/cli/main.js) into one minified file, dist/card-sandbox.js, which
// bin/card-sandbox.js runs: loading one file instead of several hundred modules is what keeps the
// cold start short. better-sqlite3 stays external (a native addon).
import { build } from 'esbuild';

// zod's `locales` namespace re-exports its error messages in every language (about 260 KB of the
// bundle, which Node parses at every start); the sandbox only uses English, the default. In the
// bundle `z.locales` therefore holds `en` alone.
const englishOnly = {
  name: 'zod-english-only',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/card-sandbox.js',
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['better-sqlite3'],
  plugins: [englishOnly],
  // CommonJS dependencies (commander) call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
