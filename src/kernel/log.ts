/**
 * The log: one line per request and per notable happening. `jsonLog` writes one JSON object a
 * line (`--json`); the CLI supplies a readable, coloured one (cli/io.ts). Secrets are never
 * passed to it.
 */
export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string;
  warnings: string[];
  replayed: boolean;
  /**
   * The fault the API fault lab put on it, as the JSON log writes it; `status` is then 0 for a
   * connection closed without an answer.
   */
  fault?: Readonly<Record<string, unknown>> | undefined;
  /** The same fault in a few words, as the readable log writes it. */
  faultText?: string | undefined;
}

export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  request(line: RequestLine): void;
}

/**
 * Request lines written in one turn of the event loop go out together at its end: under load, one
 * write a turn instead of one a request (docs/benchmarks.md: Benchmarks). What is pending when the process
 * exits is written then.
 */
export function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending = '';
  const flush = () => {
    unflushed.delete(flush);
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  return (line) => {
    if (pending === '') {
      setImmediate(flush);
      unflushed.add(flush);
    }
    pending += `${line}\n`;
  };
}

const unflushed = new Set<() => void>();
process.on('exit', () => {
  for (const flush of unflushed) flush();
});

export function jsonLog(write: (text: string) => void = (text) => process.stdout.write(text), now: () => number = Date.now): Log {
  const line = (level: string, msg: string, fields?: Record<string, unknown>) => JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields });
  const requestLine = batchedLines(write);
  return {
    info: (m, f) => write(`${line('info', m, f)}\n`),
    warn: (m, f) => write(`${line('warn', m, f)}\n`),
    error: (m, f) => write(`${line('error', m, f)}\n`),
    // A fault asked for is no error of the sandbox's.
    request: ({ faultText: _, ...l }) => requestLine(line(l.status >= 500 && !l.fault ? 'error' : 'info', 'request', l)),
  };
}

/** Keeps what was logged, for tests. */
export function memoryLog(): Log & { lines: { level: string; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  return {
    lines,
    info: (message, fields) => void lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => void lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => void lines.push({ level: 'error', message, fields }),
    request: (line) => void lines.push({ level: 'request', message: `${line.method} ${line.path} ${line.status}`, fields: { ...line } }),
  };
}

/** Warnings and errors only, as JSON lines on stderr: for a sandbox inside another program (the test companion, the MCP server). */
export function quietLog(): Log {
  const log = jsonLog((line) => process.stderr.write(line));
  return { ...log, info: () => undefined, request: () => undefined };
}
