// The service's OpenAPI document reduced to its structure, for the tests that check bodies against
// the document itself (src/testing/fixtures/reference-structure.json, checked in; docs/api.md:
// The service's document in the tests). The tests never read the document: they read this fixture,
// which keeps its paths, operations, parameters, schemas, webhooks and security as they are and
// drops its prose — descriptions (a response's required one left empty), summaries, examples,
// tags, servers and x- extensions.
//
//   node scripts/reference-structure.mjs <offblocks-api.yaml>          writes the fixture
//   node scripts/reference-structure.mjs <offblocks-api.yaml> --check  exits 1 when the fixture differs
//
// The document is YAML (a JSON file is YAML too, so a structure derived once derives to itself:
// src/testing/reference-structure.test.ts holds the fixture to that).
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const FIXTURE = fileURLToPath(new URL('../src/testing/fixtures/reference-structure.json', import.meta.url));

/** What the fixture says of itself, in place of the document's own info. */
const INFO_DESCRIPTION =
  'Derived from the public OpenAPI document of the card-issuance API the sandbox emulates (Apache License 2.0, see LICENSE): its paths, operations, parameters, schemas and security as they are; its descriptions, summaries, examples, tags, servers and x- extensions removed. A test fixture, not shipped.';

/** Keys that are prose or deployment, not structure. */
const PROSE = new Set(['description', 'summary', 'example', 'examples', 'tags', 'servers', 'externalDocs']);
/** Objects whose keys are names (a property, a path, a status), never keywords. */
const NAMED = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'paths',
  'webhooks',
  'schemas',
  'parameters',
  'securitySchemes',
  'headers',
  'content',
  'mapping',
  'callbacks',
]);

/** `node` without prose. `keys`: what its keys are — keywords, names (a property, a path, a media type), or a map of responses, each of which keeps the empty description OpenAPI requires. */
function strip(node, keys = 'keywords') {
  if (Array.isArray(node)) return node.map((item) => strip(item));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (keys === 'responses') out[key] = { ...strip(value), description: '' };
    else if (keys === 'names') out[key] = strip(value);
    else if (!PROSE.has(key) && !key.startsWith('x-')) out[key] = strip(value, key === 'responses' ? 'responses' : NAMED.has(key) ? 'names' : 'keywords');
  }
  return out;
}

/** The structure of a parsed OpenAPI document: the fixture's content. */
export function structureOf(document) {
  const { openapi, info, ...rest } = strip(document);
  return { openapi, info: { title: "The service's document: its structure only", version: info.version, description: INFO_DESCRIPTION }, ...rest };
}

const text = (document) => `${JSON.stringify(structureOf(document))}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [source, flag] = process.argv.slice(2);
  if (!source || (flag !== undefined && flag !== '--check')) {
    console.error('usage: node scripts/reference-structure.mjs <offblocks-api.yaml> [--check]');
    process.exit(2);
  }
  const derived = text(parse(readFileSync(source, 'utf8')));
  const sha = createHash('sha256').update(readFileSync(source)).digest('hex');
  if (flag === '--check') {
    const same = readFileSync(FIXTURE, 'utf8') === derived;
    console.log(
      same ? `the fixture is the structure of ${source} (sha256 ${sha})` : `the fixture differs from the structure of ${source}: run without --check`,
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(`${FIXTURE}.tmp`, derived);
  renameSync(`${FIXTURE}.tmp`, FIXTURE);
  console.log(`wrote ${FIXTURE} from ${source} (sha256 ${sha})`);
}
