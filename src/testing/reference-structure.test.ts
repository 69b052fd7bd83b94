/**
 * The fixture that stands for the service's document in the tests (docs/api.md: The service's
 * document in the tests) is what `scripts/reference-structure.mjs` derives: derived again it is
 * itself (no description, summary, example, tag, server or x- extension left), every reference in
 * it resolves, every component schema compiles, and the script's `--check` tells a stale fixture.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE_STRUCTURE, referenceSchemas } from './openapi-schemas.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/reference-structure.mjs', import.meta.url));
const { structureOf } = (await import(SCRIPT)) as { structureOf: (document: unknown) => unknown };
const text = readFileSync(REFERENCE_STRUCTURE, 'utf8');
const fixture = JSON.parse(text) as { components: { schemas: Record<string, Record<string, unknown>> } };
const dir = mkdtempSync(join(tmpdir(), 'reference-structure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every `$ref` in `node`. */
const refs = (node: unknown): string[] =>
  node === null || typeof node !== 'object'
    ? []
    : Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refs(value)));

describe("the service's document's structure", () => {
  it('is what the script derives: derived again, it is itself, byte for byte', () => {
    expect(`${JSON.stringify(structureOf(fixture))}\n`).toBe(text);
  });

  it('would lose any prose put back into it', () => {
    const { Transaction } = fixture.components.schemas;
    const withProse = {
      ...fixture,
      tags: [{ name: 'Cards' }],
      components: {
        ...fixture.components,
        schemas: { ...fixture.components.schemas, Transaction: { ...Transaction, description: 'A payment', examples: [{}] } },
      },
    };
    expect(structureOf(withProse)).not.toEqual(withProse);
    expect(structureOf(withProse)).toEqual(fixture);
  });

  it('keeps names that are prose words: a property called description stays', () => {
    const named = { ...fixture, components: { schemas: { Thing: { type: 'object', properties: { description: { type: 'string', description: 'x' } } } } } };
    expect((structureOf(named) as typeof fixture).components.schemas.Thing).toEqual({ type: 'object', properties: { description: { type: 'string' } } });
  });

  it('resolves every reference and compiles every component schema', () => {
    const unresolved = refs(fixture).filter((ref) => {
      let node: unknown = fixture;
      for (const part of ref.replace(/^#\//, '').split('/'))
        node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
      return node === undefined;
    });
    expect(unresolved).toEqual([]);
    const schemas = referenceSchemas();
    const names = Object.keys(fixture.components.schemas);
    expect(names.length).toBeGreaterThan(40);
    // Compiling is what a validation does first; an empty object is a value, not necessarily a valid one.
    for (const name of names) expect(() => schemas.component(name, {}), name).not.toThrow();
  });

  it("the script's --check passes on the source it was derived from and fails on another", () => {
    const run = (source: string) => spawnSync(process.execPath, [SCRIPT, source, '--check'], { encoding: 'utf8' });
    // The fixture is JSON, which is YAML: as a source, it derives to itself.
    expect(run(REFERENCE_STRUCTURE.pathname)).toMatchObject({ status: 0 });
    const changed = join(dir, 'changed.yaml');
    writeFileSync(
      changed,
      JSON.stringify({ ...fixture, components: { ...fixture.components, schemas: { ...fixture.components.schemas, Extra: { type: 'string' } } } }),
    );
    expect(run(changed)).toMatchObject({ status: 1, stdout: expect.stringContaining('the fixture differs') });
    expect(() => execFileSync(process.execPath, [SCRIPT], { stdio: 'pipe' })).toThrow(/usage: node scripts\/reference-structure\.mjs/);
  });
});
