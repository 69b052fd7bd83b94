/** How the sandbox words counts and choices in its sentences: `1 customer`, `3 deliveries`, `active, inactive or blocked`. */

/** `n` things: `1 customer`, `2 customers`, `3 deliveries` (with the plural given). */
export const count = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;

const joined = (words: readonly string[], last: string): string =>
  words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;

/** One of the words: `active`, `active or inactive`, `active, inactive or blocked`. */
export const either = (words: readonly string[]): string => joined(words, 'or');

/** All of the words: `status`, `status and reset`, `status, reset and expireToken`. */
export const all = (words: readonly string[]): string => joined(words, 'and');
