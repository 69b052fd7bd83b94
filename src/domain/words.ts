/** How the sandbox words counts and choices in its sentences: `1 customer`, `3 deliveries`, `active, inactive or blocked`. */

/** `n` things: `1 customer`, `2 customers`, `3 deliveries` (with the plural given). */
export const count = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;

/** One of the words: `active`, `active or inactive`, `active, inactive or blocked`. */
export const either = (words: readonly string[]): string => (words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);
