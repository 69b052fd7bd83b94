// The vitest recipe's own config (examples/vitest) as a user's project runs it: there card-sandbox
// is a package in node_modules, which vitest loads as it is. Inside this repository the package's
// name resolves to dist/lib, outside any node_modules, which vitest would otherwise transform
// again on every run. Used by src/companion/recipes.e2e.test.ts; not shipped.
import { mergeConfig } from 'vitest/config';
import recipe from './examples/vitest/vitest.config.ts';

export default mergeConfig(recipe, { test: { server: { deps: { external: [/\/dist\/lib\//] } } } });
