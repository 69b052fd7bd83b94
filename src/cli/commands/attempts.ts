/**
 * How a delivery attempt reads in the terminal, for `events show`, `events tail` and `listen`: its
 * outcome, the fault the delivery lab made of it, and what the receiver answered (docs/webhooks.md: Webhooks).
 */
import type { AttemptView } from '../../client/control.generated.js';
import type { Io } from '../io.js';

/** The status code, or the error. */
export const outcome = (io: Io, a: { statusCode?: number; error?: string }) =>
  a.error !== undefined ? io.color.red(a.error) : io.status(String(a.statusCode));

/** `[duplicate]`, or nothing. */
export const faultTag = (io: Io, a: { fault?: string }) => (a.fault ? io.color.magenta(`[${a.fault}]`) : '');

/** The answer's body on one line, cut to `max` characters. */
export function answerLine(a: AttemptView, max = 160): string | undefined {
  const body = a.response?.body?.replace(/\s+/g, ' ').trim();
  if (!body) return undefined;
  return body.length > max ? `${body.slice(0, max - 1)}…` : body;
}

const isFailure = (a: AttemptView) => a.error !== undefined || a.statusCode === undefined || a.statusCode < 200 || a.statusCode >= 300;

/**
 * What the receiver answered, for `events show`: the whole kept body of a failure (the
 * developer's own error, up to 4 KiB), one line of a success.
 */
export function answerLines(io: Io, a: AttemptView): string[] {
  const body = a.response?.body;
  if (!body) return [];
  const type = a.response?.contentType ? `${a.response.contentType}: ` : '';
  if (!isFailure(a)) return [`  #${a.attempt} answered ${io.color.dim(type + (answerLine(a, 100) ?? ''))}`];
  return [
    `  #${a.attempt} answered ${io.color.dim(type)}`,
    ...body
      .trimEnd()
      .split('\n')
      .map((line) => `    ${line}`),
  ];
}
