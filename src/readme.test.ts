import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { OPTIONS } from './config.js';
import { PROBLEMS } from './http/errors.js';
import { packagePath } from './paths.js';

// The README and docs/ are the manual: what the code can answer or accept must be written there.
const readme = readFileSync(packagePath('README.md'), 'utf8');
const manual = [readme, ...readdirSync(packagePath('docs')).filter((name) => name.endsWith('.md')).map((name) => readFileSync(packagePath('docs', name), 'utf8'))].join('\n');

describe('README', () => {
  test.each(Object.keys(PROBLEMS))('documents the error code %s', (code) => {
    expect(manual).toContain(`\`${code}\``);
  });

  test.each(OPTIONS.map((o) => [o.flag, o.env]))('documents %s and %s in a configuration table', (flag, env) => {
    expect(manual).toContain(`| \`${flag}\` | \`${env}\` |`);
  });

  // The examples the suite runs are shown as they are (Helpers for your tests, Parallel test suites).
  test.each([
    'examples/first-five-minutes.ts',
    'examples/journey.test.ts',
    'examples/vitest/vitest.config.ts',
    'examples/vitest/global-setup.ts',
    'examples/vitest/cards.test.ts',
    'examples/jest/jest.config.mjs',
    'examples/jest/global-setup.mjs',
    'examples/jest/global-teardown.mjs',
    'examples/jest/webhooks.test.mjs',
  ])('shows %s exactly as the suite runs it', (file) => {
    expect(readme).toContain(`\n${readFileSync(packagePath(file), 'utf8').trimEnd()}\n\`\`\`\n`);
  });

  // The curl walk-through's wallet is its own: loading the demo world after it is not refused.
  test("the walk-through's wallet is none of fixtures/demo.json's", () => {
    const address = /^ADDR=(0x[0-9a-fA-F]{40})$/m.exec(readme)![1]!;
    expect(readFileSync(packagePath('fixtures/demo.json'), 'utf8')).not.toContain(address);
  });
});
