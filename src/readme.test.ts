import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { OPTIONS } from './config.js';
import { PROBLEMS } from './http/errors.js';
import { packagePath } from './paths.js';

// The README is the manual: what the code can answer or accept must be written there.
const readme = readFileSync(packagePath('README.md'), 'utf8');

describe('README', () => {
  test.each(Object.keys(PROBLEMS))('documents the error code %s', (code) => {
    expect(readme).toContain(`\`${code}\``);
  });

  test.each(OPTIONS.map((o) => [o.flag, o.env]))('documents %s and %s in the configuration table', (flag, env) => {
    expect(readme).toContain(`| \`${flag}\` | \`${env}\` |`);
  });
});
