/**
 * Load generation with autocannon, bounded in time, reduced to the figures the table shows:
 * requests per second (mean of the per-second samples), latency p50/p99, and everything that was
 * not the expected answer (non-2xx, errors, timeouts) so a fast run of refusals cannot pass for a
 * fast run.
 */
import autocannon from 'autocannon';
import { cpuMs } from './sandbox.mjs';

export const CONNECTIONS = 50;

/** Seconds each load phase runs (BENCH_SECONDS, default 10). */
export function loadSeconds() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number, got "${process.env.BENCH_SECONDS}"`);
  return seconds;
}

/**
 * Runs autocannon against `url` for `seconds` with `connections` connections. `options` are
 * passed through (method, headers, requests, setupClient...). With `pid`, also the server's CPU
 * time per request: on a shared machine it moves less with the load than requests per second.
 */
export async function load(url, { seconds = loadSeconds(), connections = CONNECTIONS, pid, ...options } = {}) {
  const cpuBefore = pid === undefined ? 0 : cpuMs(pid);
  const result = await autocannon({ url, connections, duration: seconds, timeout: 10, ...options });
  const cpuUs = pid === undefined || result.requests.total === 0 ? undefined : ((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total;
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    cpuUs,
    seconds,
    // A run of a fixed number of requests ends within a second: its rate is the total over the time taken.
    rps: options.amount ? result.requests.total / result.duration : result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad,
    detail: bad ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : '',
  };
}

/** The median of `values`. */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Rounds of one target as one result: medians of the rates and latencies, CPU over all requests. */
export function combine(rounds) {
  const total = rounds.reduce((n, r) => n + r.total, 0);
  const cpu = rounds.every((r) => r.cpuUs !== undefined) ? rounds.reduce((us, r) => us + r.cpuUs * r.total, 0) / total : undefined;
  const bad = rounds.reduce((n, r) => n + r.bad, 0);
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    cpuUs: cpu,
    total,
    bad,
    detail: rounds
      .map((r) => r.detail)
      .filter(Boolean)
      .join('; '),
  };
}

/** A short unmeasured run, so the JIT and the connection pools are warm when measuring starts. */
export const warmUp = (url, options = {}) => load(url, { ...options, seconds: Math.min(2, loadSeconds()) });
