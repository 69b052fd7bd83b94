/**
 * A large snapshot file's JSON read a slice at a time (docs/snapshots.md: While things are under
 * way), so that other programmes' requests are answered between the slices: one `JSON.parse` of a
 * 40 MB file holds the event loop for most of a second, and decoding its bytes into one text as
 * long again. The file — its bytes as received, or a text — is first walked (its strings skipped
 * with `indexOf`) to find each list of records of `state.world`, cut between records about every
 * SLICE_CHARS; the file without those lists is decoded and parsed in one go, and each cut, as a
 * list of its own, after a turn of the event loop. The answer is JSON.parse's, whatever the file:
 * one laid out otherwise (a world of another version, a key given twice) is parsed whole, and one
 * that is not JSON throws JSON.parse's own error for the whole text. In UTF-8 no byte of a
 * character beyond ASCII is one of JSON's quotes, brackets or commas, so bytes are cut where a
 * text would be.
 */
import type { Pause } from './checks.js';

/**
 * Below this many characters (or bytes) a file is parsed in one go: walking it costs several times
 * the parse's CPU (a 6 MB file, 1,000 customers: 11-16 ms parsed whole, 60-80 ms sliced), and its
 * parse holds the event loop less than a large restore's checks do.
 */
export const SLICED_FROM_CHARS = 16 << 20;
const SLICE_CHARS = 1 << 19;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const COMMA = 0x2c;

/** One list of `state.world`: its key, where its records lie (between its brackets) and the cuts between them. */
interface WorldList {
  key: string;
  start: number;
  end: number;
  cuts: number[];
}

/** A file as bytes or as a text: its code units, where its next quote is, and a piece of it as text. */
interface Source {
  length: number;
  code(at: number): number;
  quote(from: number): number;
  text(from: number, to: number): string;
}

const sourceOf = (input: string | Buffer): Source =>
  typeof input === 'string'
    ? { length: input.length, code: (at) => input.charCodeAt(at), quote: (from) => input.indexOf('"', from), text: (from, to) => input.slice(from, to) }
    : { length: input.length, code: (at) => input[at]!, quote: (from) => input.indexOf(QUOTE, from), text: (from, to) => input.toString('utf8', from, to) };

/** The index of the quote that ends the string opened at `open`, or -1. */
function stringEnd(source: Source, open: number): number {
  let at = source.quote(open + 1);
  while (at >= 0) {
    let slashes = 0;
    while (source.code(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
    at = source.quote(at + 1);
  }
  return -1;
}

/**
 * The lists of `state.world`, found in one walk of the text, `pause` awaited every SLICE_CHARS; or
 * undefined for a text laid out otherwise, which is then parsed whole.
 */
async function worldLists(source: Source, pause: Pause): Promise<WorldList[] | undefined> {
  const lists: WorldList[] = [];
  // Open containers, innermost last: whether each is an object, and its key being read (objects only).
  const objects: boolean[] = [];
  const keys: string[] = [];
  let expectKey = false;
  // A key given twice on the way to the world leaves JSON.parse the last one: such a text is parsed whole.
  let onPath = 0;
  let list: WorldList | undefined;
  let next = SLICE_CHARS;
  const onWorldPath = () => objects.length === 3 && objects[0] && objects[1] && objects[2] && keys[0] === 'state' && keys[1] === 'world';
  for (let i = 0; i < source.length; i++) {
    if (i >= next) {
      next += SLICE_CHARS;
      await pause();
    }
    const c = source.code(i);
    if (c === QUOTE) {
      const end = stringEnd(source, i);
      if (end < 0) return undefined;
      if (expectKey && objects.length <= 2) {
        const key = (keys[objects.length - 1] = JSON.parse(source.text(i, end + 1)) as string);
        if ((objects.length === 1 && key === 'state') || (objects.length === 2 && keys[0] === 'state' && key === 'world')) onPath++;
      } else if (expectKey && objects.length === 3) keys[2] = JSON.parse(source.text(i, end + 1)) as string;
      expectKey = false;
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      if (c === OPEN_LIST && onWorldPath()) list = { key: keys[2]!, start: i + 1, end: -1, cuts: [] };
      objects.push(c === OPEN_OBJECT);
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
      if (objects.pop() !== (c === CLOSE_OBJECT)) return undefined;
      if (list && objects.length === 3) {
        list.end = i;
        lists.push(list);
        list = undefined;
      }
    } else if (c === COMMA) {
      expectKey = objects.at(-1) === true;
      if (list && objects.length === 4 && i - (list.cuts.at(-1) ?? list.start) >= SLICE_CHARS) list.cuts.push(i);
    }
  }
  return objects.length === 0 && onPath <= 2 ? lists : undefined;
}

/** Sets a key as JSON.parse does: as the object's own, `__proto__` included. */
const setOwn = (object: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });

async function parseSliced(source: Source, pause: Pause): Promise<unknown> {
  const lists = await worldLists(source, pause);
  if (!lists?.length) return JSON.parse(source.text(0, source.length));
  let rest = '';
  let from = 0;
  for (const { start, end } of lists) {
    rest += source.text(from, start);
    from = end;
  }
  const file = JSON.parse(rest + source.text(from, source.length)) as { state: { world: Record<string, unknown> } };
  await pause();
  for (const { key, start, end, cuts } of lists) {
    const records: unknown[] = [];
    let at = start;
    for (const cut of [...cuts, end]) {
      for (const record of JSON.parse(`[${source.text(at, cut)}]`) as unknown[]) records.push(record);
      at = cut + 1;
      await pause();
    }
    setOwn(file.state.world, key, records);
  }
  return file;
}

/** `JSON.parse` of a text, or of bytes as UTF-8; a slice at a time from `slicedFrom` characters (or bytes) on. */
export async function parseJson(input: string | Buffer, pause: Pause, slicedFrom = SLICED_FROM_CHARS): Promise<unknown> {
  const source = sourceOf(input);
  if (source.length < slicedFrom) return JSON.parse(source.text(0, source.length));
  try {
    return await parseSliced(source, pause);
  } catch {
    // JSON.parse's own answer for the whole text: its error, naming the place.
    return JSON.parse(source.text(0, source.length));
  }
}
