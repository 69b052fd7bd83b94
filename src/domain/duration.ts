/**
 * Durations as the control plane and configuration accept them: ISO 8601 (`PT25H`, `P30D`,
 * `P1DT2H30M`, `PT0.5S`) or shorthand (`90s`, `25h`, `30d`, `15m`, `500ms`). Returns milliseconds,
 * or undefined for anything else (negative, empty, junk).
 */
const SHORTHAND = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

export function parseDuration(input: string): number | undefined {
  const text = input.trim();
  const short = SHORTHAND.exec(text);
  if (short) return Math.round(Number(short[1]) * UNIT_MS[short[2]!]!);
  const iso = ISO.exec(text.toUpperCase());
  if (!iso || text.toUpperCase() === 'P' || text.toUpperCase().endsWith('T')) return undefined;
  const [, w, d, h, m, s] = iso;
  if ([w, d, h, m, s].every((v) => v === undefined)) return undefined;
  const n = (v: string | undefined) => (v === undefined ? 0 : Number(v));
  return Math.round(n(w) * UNIT_MS.w! + n(d) * UNIT_MS.d! + n(h) * UNIT_MS.h! + n(m) * UNIT_MS.m! + n(s) * 1000);
}

/** `30000` → `30s`, `90000` → `90s`, `7200000` → `2h`: the largest unit up to days that divides it, else ms. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's']) if (ms > 0 && ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${ms}ms`;
}
