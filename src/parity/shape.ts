/**
 * What a value on the wire is, once what differs on every run is set aside (docs/parity.md: Reading a
 * difference): the JSON type, and for a string its format — an id, a timestamp, a CAIP id, a decimal, a
 * token or signature — or, when it is a plain word such as `active` or `EUR`, the word itself, which
 * is compared as an enumeration value. Free text is only a string. Pure.
 */

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** The formats told apart, most particular first; `word` and `text` are plain strings. */
const FORMATS: [string, RegExp][] = [
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['jwt', /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/],
  ['caip-19', /^[-a-z0-9]{3,8}:[-\w]{1,32}\/[-a-z0-9]{3,8}:[-.%\w]{1,128}$/],
  ['caip-10', /^[-a-z0-9]{3,8}:[-\w]{1,32}:[-.%\w]{1,128}$/],
  ['caip-2', /^[-a-z0-9]{3,8}:[-\w]{1,32}$/],
  ['url', /^https?:\/\/\S+$/i],
  ['masked-pan', /^\d{4,8}[*xX\u2022]{2,}\d{2,4}$/],
  ['month-year', /^(0[1-9]|1[0-2])\/\d{2}(\d{2})?$/],
  ['decimal', /^-?\d+(\.\d+)?$/],
  ['hex', /^0x[0-9a-f]+$/i],
];

const WORD = /^[A-Za-z][\w.-]{0,63}$/;
// Base64 long enough not to be a word, with a character no word has or its padding.
const BASE64 = /^[A-Za-z0-9+/]{22,}={0,2}$/;

/** The format of a string: one of FORMATS, `base64`, `word` (compared by value) or `text`. */
export function formatOf(value: string): string {
  for (const [name, pattern] of FORMATS) if (pattern.test(value)) return name;
  if (BASE64.test(value) && value.length % 4 === 0 && /[0-9+/=]/.test(value)) return 'base64';
  return WORD.test(value) ? 'word' : 'text';
}

export function typeOf(value: unknown): JsonType {
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'boolean' || type === 'number' || type === 'string') return type;
  // JSON has no undefined: nothing is null.
  return type === 'object' && value !== null ? 'object' : 'null';
}

/** How a difference names a value's kind: `string (uuid)`, `number`, `array`, `object`… */
export function describe(value: unknown): string {
  const type = typeOf(value);
  return type === 'string' ? `string (${formatOf(value as string)})` : type;
}

/**
 * Fields whose value is made afresh by each service, or is prose: their type and format are
 * compared, never their value (docs/parity.md: What is set aside). `code` is compared as the error
 * code, apart.
 */
const NOT_COMPARED = /^(id|.*Id|token|challenge|signature|key|requestId|detail|title|message|name|nonce|expiresAt|createdAt|updatedAt|code)$/;

/** Whether the value under `key` is compared as an enumeration value when it is a word or a boolean. */
export const comparedByValue = (key: string | undefined): boolean => key === undefined || !NOT_COMPARED.test(key);

/** Whether a string is a word, compared by value (`active`, `EUR`, `card.updated`). */
export const isWord = (value: string): boolean => formatOf(value) === 'word';

/** The identity of a list item, to pair the two services' items whatever their order: its `id`, else its `path` (a problem's errors). */
export function identityOf(item: unknown): string | undefined {
  if (typeOf(item) !== 'object') return undefined;
  const record = item as Record<string, unknown>;
  for (const key of ['id', 'path']) if (typeof record[key] === 'string') return record[key];
  return undefined;
}

/** A media type without its parameters, lower case: `application/json; charset=utf-8` → `application/json`; '' for none. */
export const mediaType = (contentType: string | null | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/** An RFC 9457 problem's machine code (`code`), or an `error` field's, when the answer has one. */
export function errorCodeOf(body: unknown): string | undefined {
  if (typeOf(body) !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.code === 'string') return record.code;
  if (typeof record.error === 'string') return record.error;
  const nested = record.error as Record<string, unknown> | undefined;
  return typeOf(nested) === 'object' && typeof nested!.code === 'string' ? nested!.code : undefined;
}
