import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { assertBuilt, ROOT } from '../testing/spawn.js';

// The client's types are generated from /openapi.json (docs/companion.md: The API client): the examples
// type-check against the built package, and a fixture that gets fields wrong does not.
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

function tsc(project: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', project], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('the examples and recipes type-check against the generated types', async () => {
  assertBuilt();
  const { code, output } = await tsc('examples/tsconfig.json');
  expect(output).toBe('');
  expect(code).toBe(0);
});

test('a wrong field fails tsc, on each line that has one and no other', async () => {
  assertBuilt();
  const fixture = 'examples/types/wrong-fields.ts';
  const wrongLines = readFileSync(join(ROOT, fixture), 'utf8')
    .split('\n')
    .flatMap((line, i) => (line.includes('// wrong:') ? [i + 1] : []));
  const { code, output } = await tsc('examples/types/tsconfig.json');
  expect(code).not.toBe(0);
  const errors = [...output.matchAll(/^examples\/types\/wrong-fields\.ts\((\d+),\d+\): error (TS\d+)/gm)];
  expect(errors.map((e) => Number(e[1]))).toEqual(wrongLines);
  expect(output).toContain("'externalID' does not exist in type '{ chainId: string; externalId: string; }'. Did you mean to write 'externalId'?");
  expect(output).toContain("Property 'pan' does not exist on type 'Card'.");
});
