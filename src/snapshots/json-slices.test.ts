/**
 * A large snapshot file's JSON read a slice at a time (json-slices.ts): the answer is JSON.parse's
 * for every text — records holding quotes, escapes, brackets and commas in their strings, a key
 * given twice, a `__proto__` key, a world of another layout — a text that is not JSON fails with
 * JSON.parse's own error, and other work runs between the slices.
 */
import { describe, expect, it } from 'vitest';
import { parseJson as parseLarge } from './json-slices.js';

/** Files from 1 MiB on are read in slices here, as those from 16 MiB on are in a restore: the same walk, smaller files. */
const SLICED_FROM_CHARS = 1 << 20;
const parseJson = (input: string | Buffer, pause: () => Promise<void>) => parseLarge(input, pause, SLICED_FROM_CHARS);

const tricky = (i: number) => ({
  id: `r-${i}`,
  body: `{"a":[1,2,{"b":"]},{["}],"q":"\\"${i}\\\\"}`,
  slashes: '\\'.repeat(i % 4),
  nested: { list: [i, [i, { x: '}' }]], empty: [] },
  n: i / 7,
  flag: i % 2 === 0,
  none: null,
});

/** A file of the snapshot's layout, large enough to be read in slices. */
function file(records = 24_000) {
  const list = Array.from({ length: records }, (_, i) => tricky(i));
  return { format: 'card-sandbox snapshot', state: { clock: { now: 'x' }, world: { customers: list, accounts: list.slice(0, 3), cards: [] } }, sha256: 'f' };
}

/** Awaited between slices: counts them. */
function counter() {
  const pause = () => {
    pause.turns++;
    return new Promise<void>((resolve) => setImmediate(resolve));
  };
  pause.turns = 0;
  return pause;
}

describe('parseJson', () => {
  it('answers as JSON.parse does for a large file, a slice at a time, with other work between the slices', async () => {
    const text = JSON.stringify(file());
    expect(text.length).toBeGreaterThan(4 * SLICED_FROM_CHARS);
    const pause = counter();
    let other = 0;
    const ticking = setInterval(() => other++, 0);
    const parsed = await parseJson(text, pause);
    clearInterval(ticking);
    expect(JSON.stringify(parsed)).toBe(text);
    expect(pause.turns).toBeGreaterThan(8);
    expect(other).toBeGreaterThan(0);
    // Its bytes, as a file is received: a text beyond ASCII cut where its text would be.
    const accented = text.replaceAll('r-1', 'é€😀-');
    expect(JSON.stringify(await parseJson(Buffer.from(accented), counter()))).toBe(accented);
    // Laid out by other hands: indented, the world first.
    const { state, ...head } = JSON.parse(text);
    const indented = JSON.stringify({ state: { world: state.world, clock: state.clock }, ...head }, null, 2);
    expect(JSON.stringify(await parseJson(indented, counter()), null, 2)).toBe(indented);
  });

  it('answers as JSON.parse does for keys given twice, a __proto__ list and a world of another layout', async () => {
    const list = JSON.stringify(file(8000).state.world.customers);
    const texts = [
      `{"state":{"world":{"customers":${list},"customers":[{"last":true}]}}}`,
      `{"state":{"world":{"customers":${list}},"world":{"accounts":[]}}}`,
      `{"state":{"world":{"customers":${list}}},"state":{"world":[]}}`,
      `{"state":{"world":{"__proto__":${list}}}}`,
      `{"state":{"world":{"customers":{"columns":["id"],"rows":${list}}}}}`,
      `[${list}]`,
    ];
    for (const text of texts) {
      expect(text.length).toBeGreaterThan(SLICED_FROM_CHARS);
      const parsed = (await parseJson(text, counter())) as { state: { world: object } };
      expect(parsed).toEqual(JSON.parse(text));
    }
    const proto = (await parseJson(texts[3]!, counter())) as { state: { world: object } };
    expect(Object.getPrototypeOf(proto.state.world)).toBe(Object.prototype);
    expect(Object.keys(proto.state.world)).toEqual(['__proto__']);
  });

  it('fails as JSON.parse does, with its error, for a text that is not JSON: cut short, a record broken, a bracket that does not match', async () => {
    const text = JSON.stringify(file(8000));
    const broken = [
      text.slice(0, -1),
      text.slice(0, text.length / 2),
      text.replace('"r-2000"', '"r-2000",,'),
      text.replace('"none":null}', '"none":null]'),
      `${text} x`,
    ];
    for (const bad of broken) {
      let expected: unknown;
      try {
        JSON.parse(bad);
      } catch (error) {
        expected = error;
      }
      expect(expected).toBeInstanceOf(SyntaxError);
      await expect(parseJson(bad, counter())).rejects.toThrow((expected as Error).message);
      await expect(parseJson(Buffer.from(bad), counter())).rejects.toThrow((expected as Error).message);
    }
  });
});
