import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { packagePath } from '../kernel/paths.js';

// The manual holds together: the README and the pages under docs/ link to files and headings that
// exist, and every code comment that cites a section — `(docs/webhooks.md: The delivery lab)`,
// `(README: Quick start)`, nested headings joined by ` → ` — names headings the page has.
const ROOT = packagePath();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const FOLDER_READMES = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(ROOT, 'src', e.name, 'README.md')))
  .map((e) => `src/${e.name}/README.md`);
const MARKDOWN = ['README.md', 'BENCHMARKS.md', 'SKILL.md', ...DOCS, ...FOLDER_READMES];
const README_MAX_LINES = 300;

interface Heading {
  text: string;
  level: number;
  slug: string;
}

/** The text of a markdown file with fenced code blocks blanked, line for line. */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headingCache = new Map<string, Heading[]>();
function headings(file: string): Heading[] {
  const cached = headingCache.get(file);
  if (cached) return cached;
  const seen = new Map<string, number>();
  const list = [...prose(read(file)).matchAll(/^(#{1,6})\s+(.+?)\s*#*\s*$/gm)].map(([, hashes, raw]) => {
    // What GitHub reads of a heading: inline code and links as their text.
    const text = raw!.replace(/`([^`]*)`/g, '$1').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = slugOf(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return { text, level: hashes!.length, slug: n === 0 ? base : `${base}-${n}` };
  });
  headingCache.set(file, list);
  return list;
}

/** Every relative link and image of a markdown file that does not resolve. */
function brokenLinks(file: string): string[] {
  // Inline code is not a link, even when it looks like one.
  const text = prose(read(file)).replace(/`[^`]*`/g, '');
  const broken: string[] = [];
  for (const [link, target] of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:…
    const [path = '', anchor] = target!.split('#');
    const to = path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(path)));
    const where = `${file}: ${link.replace(/\s+/g, ' ')}`;
    if (to.startsWith('..') || !existsSync(join(ROOT, to))) broken.push(`${where} — no file ${to}`);
    else if (anchor !== undefined) {
      if (!to.endsWith('.md') || statSync(join(ROOT, to)).isDirectory()) broken.push(`${where} — an anchor into ${to}, which is not a markdown page`);
      else if (!headings(to).some((h) => h.slug === anchor)) broken.push(`${where} — ${to} has no heading #${anchor}`);
    }
  }
  return broken;
}

/** Source files that may cite the manual: everything under these folders, and these files. */
function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|cjs|js|css|sh)$/.test(entry.name) && entry.name !== 'api.generated.ts') files.push(path);
    }
  };
  for (const dir of ['src', 'ui', 'scripts', 'bench', 'bin', 'examples']) walk(dir);
  return [...files, '.ci/run', 'Dockerfile', 'eslint.config.js', 'vitest.config.ts'].filter((f) => existsSync(join(ROOT, f)));
}

// Between two words of a citation a comment may wrap: a line break, then the comment's leader
// (`//`, ` * `, `#`), or, in a generated comment built from string literals, `',` and `'//`.
const WRAP = /[ \t]*(?:',)?\r?\n[ \t]*'?(?:\/\/+|\*(?!\/)|#)?[ \t]*/g;
const CITATION = /(?<![\w/.-])(README|docs\/[\w-]+\.md):[ \t]*(?:(?:',)?\r?\n[ \t]*'?(?:\/\/+|\*(?!\/)|#)?[ \t]*)?/g;

/**
 * What a citation at `at` names, read from the page's own headings: one or more chains of
 * headings, each chain's parts joined by ` → ` and nested in that order, chains joined by `, `.
 * Returns the problem, or undefined when every part is a heading of the page.
 */
function checkCitation(page: string, text: string): string | undefined {
  const list = headings(page);
  // Longest first, so that "Authentication, signatures and idempotency" wins over any prefix of it.
  const byLength = [...list].sort((a, b) => b.text.length - a.text.length);
  const headingAt = (rest: string) => byLength.find((h) => rest.startsWith(h.text) && !/^[\p{L}\p{N}]/u.test(rest.slice(h.text.length)));
  let rest = text;
  for (;;) {
    let parent: Heading | undefined;
    for (;;) {
      const heading = headingAt(rest);
      if (!heading) return `${page} has no heading "${rest.split(/[).;:'"`]|,\s| — /)[0]}"`;
      if (parent) {
        // Nested: after its parent, before the next heading at the parent's level or above.
        const from = list.indexOf(parent);
        const end = list.findIndex((h, i) => i > from && h.level <= parent!.level);
        const inside = list.slice(from + 1, end === -1 ? undefined : end);
        if (!inside.includes(heading)) return `"${heading.text}" is not a heading under "${parent.text}" in ${page}`;
      }
      parent = heading;
      rest = rest.slice(heading.text.length);
      if (!rest.startsWith(' → ')) break;
      rest = rest.slice(3);
    }
    // Another chain of the same page, when what follows the comma is one of its headings.
    if (!(rest.startsWith(', ') && headingAt(rest.slice(2)))) return undefined;
    rest = rest.slice(2);
  }
}

function brokenCitations(): string[] {
  const broken: string[] = [];
  for (const file of sources()) {
    const text = read(file);
    for (const match of text.matchAll(CITATION)) {
      const page = match[1] === 'README' ? 'README.md' : match[1]!;
      const line = text.slice(0, match.index).split('\n').length;
      const cited = text.slice(match.index + match[0].length, match.index + match[0].length + 400).replace(WRAP, ' ');
      const where = `${file}:${line}: ${match[1]}: ${cited.split(/\)|\n/)[0]}`;
      if (!existsSync(join(ROOT, page))) broken.push(`${where} — no page ${page}`);
      else {
        const problem = checkCitation(page, cited);
        if (problem) broken.push(`${where} — ${problem}`);
      }
    }
  }
  return broken;
}

describe('the manual', () => {
  test("every relative link and #anchor in README.md, BENCHMARKS.md, SKILL.md, docs/ and the folders' READMEs resolves", () => {
    expect(MARKDOWN.flatMap(brokenLinks)).toEqual([]);
  });

  test('every citation of a section in the code names headings of that page', () => {
    expect(brokenCitations()).toEqual([]);
  });

  test(`the README stays short (at most ${README_MAX_LINES} lines) and links every page of docs/`, () => {
    const readme = read('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
    const index = read('docs/README.md');
    const pages = DOCS.filter((page) => page !== 'docs/README.md');
    expect(pages.filter((page) => !readme.includes(`](${page})`))).toEqual([]);
    expect(pages.filter((page) => !index.includes(`](${page.slice('docs/'.length)})`))).toEqual([]);
  });

  test('the architecture page names every part of src/', () => {
    const architecture = read('docs/architecture.md');
    const parts = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
    expect(parts.filter((part) => !architecture.includes(`\`${part}\``))).toEqual([]);
  });

  test("the architecture page gives each part one line of at most 30 words; the detail is in its folder's README", () => {
    const rows = read('docs/architecture.md')
      .split('\n')
      .filter((line) => /^\| (?!-|part |folder )/.test(line))
      .map((line) => line.split(' | '));
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((cells) => cells.length !== 2 || cells[1]!.split(/\s+/).length > 30).map((cells) => cells[0])).toEqual([]);
  });

  test('the webhooks page names every webhook type the sandbox sends', () => {
    const webhooks = prose(read('docs/webhooks.md'));
    expect(WEBHOOK_TYPES.filter((type) => !webhooks.includes(`\`${type}\``))).toEqual([]);
  });

  // The checks themselves: a broken link, anchor or citation is caught, and nested headings are.
  test('catches what it is meant to catch', () => {
    expect(checkCitation('docs/webhooks.md', 'Webhooks → The delivery lab): faults')).toBeUndefined();
    expect(checkCitation('docs/api.md', 'API behaviour, Errors). Services')).toBeUndefined();
    expect(checkCitation('docs/webhooks.md', 'The delivery lab → Webhooks)')).toMatch(/not a heading under/);
    expect(checkCitation('docs/webhooks.md', 'The delivery laboratory)')).toMatch(/has no heading "The delivery laboratory"/);
    expect(slugOf('What is emulated, and what is not')).toBe('what-is-emulated-and-what-is-not');
    expect(slugOf('Authentication, signatures and idempotency')).toBe('authentication-signatures-and-idempotency');
  });
});
