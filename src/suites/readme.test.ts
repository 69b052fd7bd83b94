import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { OPTIONS } from '../config/index.js';
import { PROBLEMS } from '../http/errors.js';
import { packagePath } from '../kernel/paths.js';

// The README and the pages of docs/ are the manual: what the code can answer or accept must be
// written there, each on its page.
const page = (file: string) => readFileSync(packagePath(file), 'utf8');

describe('the manual', () => {
  test.each(Object.keys(PROBLEMS))('documents the error code %s (docs/api.md)', (code) => {
    expect(page('docs/api.md')).toContain(`\`${code}\``);
  });

  test.each(OPTIONS.map((o) => [o.flag, o.env]))('documents %s and %s in the configuration table (docs/configuration.md)', (flag, env) => {
    expect(page('docs/configuration.md')).toContain(`| \`${flag}\` | \`${env}\` |`);
  });

  // The examples the suite runs are shown as they are, on the page that shows them.
  test.each([
    ['examples/first-five-minutes.ts', 'README.md'],
    ['examples/journey.test.ts', 'docs/companion.md'],
    ['examples/vitest/vitest.config.ts', 'docs/programmes.md'],
    ['examples/vitest/global-setup.ts', 'docs/programmes.md'],
    ['examples/vitest/cards.test.ts', 'docs/programmes.md'],
    ['examples/jest/jest.config.mjs', 'docs/companion.md'],
    ['examples/jest/global-setup.mjs', 'docs/companion.md'],
    ['examples/jest/global-teardown.mjs', 'docs/companion.md'],
    ['examples/jest/webhooks.test.mjs', 'docs/companion.md'],
  ])('shows %s exactly as the suite runs it, in %s', (file, shownIn) => {
    expect(page(shownIn)).toContain(`\n${readFileSync(packagePath(file), 'utf8').trimEnd()}\n\`\`\`\n`);
  });

  // The curl walk-through's wallet is its own: loading the demo world after it is not refused.
  test("the curl walk-through's wallet (docs/api.md) is none of fixtures/demo.json's", () => {
    const address = /^ADDR=(0x[0-9a-fA-F]{40})$/m.exec(page('docs/api.md'))![1]!;
    expect(readFileSync(packagePath('fixtures/demo.json'), 'utf8')).not.toContain(address);
  });
});
