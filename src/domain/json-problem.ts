/**
 * Where a text stops being JSON, said without quoting it. JSON.parse's own message carries the
 * first bytes of the text (`Unexpected token 'r', "root:x:0:0:"... is not valid JSON`); a file or a
 * body may be anything on the machine, so a refusal names only the place (docs/reliability.md:
 * Error text).
 */
export function jsonProblem(error: unknown, text: string): string {
  if (text.trim() === '') return 'it is empty';
  const message = error instanceof Error ? error.message : '';
  const at = /position (\d+)/.exec(message)?.[1];
  if (/end of JSON input|Unterminated/i.test(message)) return 'it ends before the JSON does (cut short?)';
  if (at !== undefined) {
    const offset = Number(at);
    if (offset >= text.trimEnd().length) return 'it ends before the JSON does (cut short?)';
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return `it stops being JSON at line ${line}, column ${column} (character ${offset + 1})`;
  }
  // V8 names no place for an unexpected character, only the text around it: name the character's kind.
  return /Unexpected token/.test(message) ? 'it has a character where JSON cannot have one' : 'it is not JSON';
}
