import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, test } from 'vitest';
import { assertBuilt, ROOT } from '../testing/spawn.js';

// The client's types are generated from /openapi.json (docs/companion.md: The API client): the examples
// type-check against the built package, and a fixture that gets fields wrong does not. Both projects
// are checked in this process, as `tsc -p` checks them, sharing the files they both read.
const parsed = new Map<string, ts.SourceFile | undefined>();
// The worker goes on to other files: the syntax trees go with this one.
afterAll(() => parsed.clear());
const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };

async function tsc(project: string): Promise<{ code: number; output: string }> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, project),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
  )!;
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) => {
    if (!parsed.has(file)) parsed.set(file, read(file, language, ...rest));
    return parsed.get(file);
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, configFileParsingDiagnostics: config.errors });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return { code: diagnostics.length === 0 ? 0 : 2, output: ts.formatDiagnostics(diagnostics, formatHost) };
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
