/**
 * How a value a client sent is echoed in a refusal: quoted, and cut at 64 characters, so that a
 * refusal names what it refuses without carrying a forged token's claim, a header or a file whole
 * back into a log or a terminal (docs/reliability.md: Error text).
 */
export const ECHO_CHARS = 64;

/** `"2026-13-01"`, or `"aaaa…" (10000 characters)` for a long one. */
export function echo(value: string, max = ECHO_CHARS): string {
  // Control characters written as escapes, so that an echo never moves a terminal's cursor.
  const printable = [...value].map((c) => (c < ' ' || c === '\u007f' ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
  if (printable.length <= max) return `"${printable}"`;
  return `"${printable.slice(0, max)}…" (${value.length} characters)`;
}
