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
}

export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  request(line: RequestLine): void;
}

export function jsonLog(write: (line: string) => void = (l) => process.stdout.write(l), now: () => number = Date.now): Log {
  const out = (level: string, msg: string, fields?: Record<string, unknown>) =>
    write(`${JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields })}\n`);
  return {
    info: (m, f) => out('info', m, f),
    warn: (m, f) => out('warn', m, f),
    error: (m, f) => out('error', m, f),
    request: (line) => out(line.status >= 500 ? 'error' : 'info', 'request', { ...line }),
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
