/**
 * Terminal output: the only importer of chalk. Colour follows the terminal and NO_COLOR /
 * FORCE_COLOR; `--json` output is never coloured. Also the readable server log.
 */
import { stripVTControlCharacters } from 'node:util';
import { Chalk, type ChalkInstance } from 'chalk';
import { batchedLines, type Log, type RequestLine } from '../kernel/log.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  color: ChalkInstance;
  /** A readable, coloured log for `start` without --json. */
  log(): Log;
  /** Prints rows as an aligned table with a header row. */
  table(headers: string[], rows: string[][]): void;
  /** Colours a status word (active, pending, failed…). */
  status(text: string): string;
  /** Machine output: one JSON document, never coloured (`compact` keeps it on one line). */
  json(value: unknown, compact?: boolean): void;
  /** Whether stderr is a terminal, where progress is shown. */
  readonly live: boolean;
  /** Progress of long work, on one line of stderr rewritten in place; undefined clears it. Nothing when stderr is not a terminal. */
  progress(text: string | undefined): void;
}

export function createIo(stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr, env = process.env): Io {
  const tty = (stdout as NodeJS.WriteStream).isTTY === true;
  const level = env.NO_COLOR !== undefined && env.NO_COLOR !== '' ? 0 : env.FORCE_COLOR !== undefined ? 1 : tty ? 1 : 0;
  const color = new Chalk({ level });
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is not a failure.
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    if (stdout === process.stdout) process.exit(0);
  });
  const out = (text: string) => void stdout.write(`${text}\n`);
  const err = (text: string) => void stderr.write(`${text}\n`);
  const live = (stderr as NodeJS.WriteStream).isTTY === true;
  let shown = false;

  const statusColour = (text: string) => {
    if (level === 0) return text;
    if (/^(ok|active|delivered|captured|processed|released|2\d\d)$/.test(text)) return color.green(text);
    if (/^(pending|initiating|screening|verifying|issuing|capturing|releasing|processing|inactive|3\d\d)$/.test(text)) return color.yellow(text);
    if (/^(rejected|failed|issue_failed|terminated|closed|discarded|4\d\d|5\d\d|error|no answer)$/.test(text)) return color.red(text);
    return text;
  };

  // Made once per millisecond: under load, many lines share one.
  let shownAt = Number.NaN;
  let shownTime = '';
  const time = () => {
    const now = Date.now();
    if (now !== shownAt) {
      shownAt = now;
      shownTime = color.dim(new Date(now).toISOString().slice(11, 23));
    }
    return shownTime;
  };
  const fields = (f?: Record<string, unknown>) => (f && Object.keys(f).length ? ` ${color.dim(JSON.stringify(f))}` : '');

  return {
    out,
    err,
    color,
    status: statusColour,
    json: (value, compact = false) => out(compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)),
    live,
    progress(text) {
      if (!live || (text === undefined && !shown)) return;
      // Carriage return and erase-line: the line is rewritten where it stands.
      stderr.write(`\r\x1b[2K${text === undefined ? '' : color.dim(text)}`);
      shown = text !== undefined;
    },
    log: () => {
      const requestLine = batchedLines((text) => void stdout.write(text));
      // Under --verify warn every unsigned request warns: a turn's warnings and errors go out
      // together too, in the order they were logged, one write to stderr instead of one a line.
      const problemLine = batchedLines((text) => void stderr.write(text));
      return {
        info: (m, f) => out(`${time()} ${m}${fields(f)}`),
        warn: (m, f) => problemLine(`${time()} ${color.yellow('warn')} ${m}${fields(f)}`),
        error: (m, f) => problemLine(`${time()} ${color.red('error')} ${m}${fields(f)}`),
        request: (l: RequestLine) => {
          let extra = l.replayed ? ` ${color.cyan('replayed')}` : '';
          for (const w of l.warnings) extra += ` ${color.yellow(`⚠ ${w}`)}`;
          if (l.faultText) extra += ` ${color.magenta(l.faultText)}`;
          requestLine(
            `${time()} ${l.method.padEnd(6)} ${l.path} ${statusColour(l.status === 0 ? 'no answer' : String(l.status))} ${color.dim(`${l.ms}ms`)}${extra}`,
          );
        },
      };
    },
    table(headers, rows) {
      const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => stripVTControlCharacters(r[i] ?? '').length)));
      const line = (cells: string[]) =>
        cells
          .map((c, i) => c + ' '.repeat(Math.max(0, widths[i]! - stripVTControlCharacters(c).length)))
          .join('  ')
          .trimEnd();
      out(color.bold(line(headers)));
      for (const row of rows) out(line(row));
    },
  };
}
