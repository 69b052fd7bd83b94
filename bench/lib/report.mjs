/**
 * The report: the machine the run was made on, the results table (printed, and written to
 * BENCHMARKS.md as Markdown), each row with its target and whether it was met.
 */
import { execSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

export function machine() {
  let cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  if (cpu === 'unknown CPU') {
    try {
      cpu = execSync('lscpu', { encoding: 'utf8' }).match(/^Model name:\s+(.+)$/m)?.[1] ?? cpu;
    } catch {
      // lscpu is not everywhere; the model stays unknown.
    }
  }
  return { cpu, cores: cpus().length, memoryGiB: totalmem() / 2 ** 30, node: process.version, platform: `${process.platform} ${process.arch}` };
}

/** The 1, 5 and 15 minute load averages. */
export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

const fixed = (value, digits = 0) =>
  value === undefined || Number.isNaN(value) ? '—' : value.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A row: phase, load figures, result, target, met (true/false/undefined for "no target"). */
export const row = (phase, { rps, p50, p99, cpuUs } = {}, result = '', target = '', met) => ({
  phase,
  rps: fixed(rps),
  p50: fixed(p50, 1),
  p99: fixed(p99, 1),
  cpu: fixed(cpuUs),
  result,
  target,
  met,
});

const HEADERS = ['Phase', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'Result', 'Target', 'Met'];
const NUMERIC = new Set([1, 2, 3, 4]);
const cells = (r) => [r.phase, r.rps, r.p50, r.p99, r.cpu, r.result, r.target, r.met === undefined ? '' : r.met ? 'yes' : 'NO'];

export function textTable(rows) {
  const all = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => (NUMERIC.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => line(cells(r)))].join('\n');
}

export function markdownTable(rows) {
  const esc = (c) => c.replaceAll('|', '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map((_, i) => (NUMERIC.has(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`),
  ].join('\n');
}

/** A duration in milliseconds, as the table writes it. */
const ms = (value) => `${fixed(value)} ms`;

export { fixed, ms };
