// The library entries' declarations (scripts/bundle.mjs bundles their JavaScript): one file each in
// dist/lib, index.d.ts and client.d.ts, rolled up from tsc's declarations in dist/, that names
// nothing but their own types and Node's, their shared types in common files.
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const declarations = await rollup({
  input: { index: 'dist/index.d.ts', client: 'dist/client/index.d.ts' },
  external: (id) => id.startsWith('node:'),
  plugins: [dts()],
});
await declarations.write({ dir: 'dist/lib', format: 'es', chunkFileNames: 'types-[hash].d.ts' });
await declarations.close();
