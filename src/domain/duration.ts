/**
 * Durations as the control plane and configuration accept them (docs/cli.md: Durations): ISO 8601 (`PT25H`, `P30D`,
 * `P1DT2H30M`, `PT0.5S`) or shorthand (`90s`, `25h`, `30d`, `15m`, `500ms`), its parts compound
 * from the largest unit down (`1d12h`, `1h30m`, `2m30s`). Units are lowercase: `m` is a minute,
 * `mo` a month (calendar durations only), and `1M` is refused as ambiguous. Returns milliseconds,
 * or undefined for anything else (negative, empty, junk, or more milliseconds than a number holds exactly).
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const ISO = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Shorthand units, largest first: a compound duration names each at most once, in this order. */
const UNITS = ['y', 'mo', 'w', 'd', 'h', 'm', 's', 'ms'] as const;
type Unit = (typeof UNITS)[number];
const PART = /(\d+(?:\.\d+)?)(ms|mo|y|w|d|h|m|s)/y;

/** `1d12h` → [[1, 'd'], [12, 'h']]; undefined unless the whole text is parts in order, each unit once. */
function shorthandParts(text: string): [number, Unit][] | undefined {
  const parts: [number, Unit][] = [];
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const match = PART.exec(text);
    if (!match || match.index !== at) return undefined;
    const unit = match[2] as Unit;
    if (parts.length && UNITS.indexOf(unit) <= UNITS.indexOf(parts.at(-1)![1])) return undefined;
    parts.push([Number(match[1]), unit]);
  }
  return parts.length ? parts : undefined;
}

/** Why a duration that looks like shorthand is refused, when a hint helps: `1M`, `25H`. */
export function durationMistake(input: string): string | undefined {
  const text = input.trim();
  // A hint repeats what was sent: none for a text too long to echo whole (the refusal says the rest).
  if (text.length > 32) return undefined;
  if (/^\d+(?:\.\d+)?M$/.test(text)) return `"${text}" is ambiguous: write ${text.slice(0, -1)}m for minutes or ${text.slice(0, -1)}mo for months`;
  if (!/^P/i.test(text) && shorthandParts(text.toLowerCase()) && text !== text.toLowerCase()) return `shorthand units are lowercase: ${text.toLowerCase()}`;
  return undefined;
}

export function parseDuration(input: string): number | undefined {
  const text = input.trim();
  const parts = shorthandParts(text);
  if (parts) return parts.every(([, unit]) => unit in UNIT_MS) ? exact(Math.round(parts.reduce((ms, [n, unit]) => ms + n * UNIT_MS[unit]!, 0))) : undefined;
  const iso = ISO.exec(text.toUpperCase());
  if (!iso || text.toUpperCase() === 'P' || text.toUpperCase().endsWith('T')) return undefined;
  const [, w, d, h, m, s] = iso;
  if ([w, d, h, m, s].every((v) => v === undefined)) return undefined;
  const n = (v: string | undefined) => (v === undefined ? 0 : Number(v));
  return exact(Math.round(n(w) * UNIT_MS.w! + n(d) * UNIT_MS.d! + n(h) * UNIT_MS.h! + n(m) * UNIT_MS.m! + n(s) * 1000));
}

/** A sum of milliseconds too large to hold exactly (or infinite) is no duration at all. */
const exact = (ms: number): number | undefined => (Number.isSafeInteger(ms) ? ms : undefined);

/** `30000` → `30s`, `90000` → `90s`, `7200000` → `2h`: the largest unit up to days that divides it, else ms. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's']) if (ms > 0 && ms % UNIT_MS[unit]! === 0) return `${ms / UNIT_MS[unit]!}${unit}`;
  return `${ms}ms`;
}

/**
 * A duration that may count calendar years and months (docs/control-plane.md: Time travel and the control plane):
 * ISO 8601 (`P3Y`, `P1M`, `P1Y2M3DT4H`) or shorthand (`1y`, `1mo`, `1y6mo`, `1mo15d`), as well as
 * every fixed duration above. Years and months are whole; what they add depends on the instant
 * they are added to.
 */
export interface CalendarDuration {
  years: number;
  months: number;
  /** The fixed part: weeks, days, hours, minutes, seconds. */
  ms: number;
}

const CALENDAR_ISO = /^P(?:(\d+)Y)?(?:(\d+)M)?((?:\d+(?:\.\d+)?W)?(?:\d+(?:\.\d+)?D)?(?:T.*)?)$/;

export function parseCalendarDuration(input: string): CalendarDuration | undefined {
  const text = input.trim();
  const parts = shorthandParts(text);
  if (parts) {
    const calendar = { years: 0, months: 0, ms: 0 };
    for (const [n, unit] of parts) {
      if (unit === 'y' || unit === 'mo') {
        if (!Number.isSafeInteger(n)) return undefined;
        calendar[unit === 'y' ? 'years' : 'months'] = n;
      } else calendar.ms += n * UNIT_MS[unit]!;
    }
    const ms = exact(Math.round(calendar.ms));
    return ms === undefined ? undefined : { ...calendar, ms };
  }
  const ms = parseDuration(text);
  if (ms !== undefined) return { years: 0, months: 0, ms };
  const iso = CALENDAR_ISO.exec(text.toUpperCase());
  if (!iso || (iso[1] === undefined && iso[2] === undefined)) return undefined;
  const rest = iso[3] ? parseDuration(`P${iso[3]}`) : 0;
  if (rest === undefined) return undefined;
  const [years, months] = [Number(iso[1] ?? 0), Number(iso[2] ?? 0)];
  if (!Number.isSafeInteger(years) || !Number.isSafeInteger(months)) return undefined;
  return { years, months, ms: rest };
}

/**
 * `instant` plus `duration`, in UTC: years and months first, on the calendar — a day that the
 * target month lacks becomes its last (31 January + P1M = the last day of February), as java.time
 * and Temporal do — then the fixed part.
 */
export function addCalendar(instant: number, { years, months, ms }: CalendarDuration): number {
  if (years === 0 && months === 0) return instant + ms;
  const at = new Date(instant);
  const total = at.getUTCMonth() + months + 12 * years;
  const year = at.getUTCFullYear() + Math.floor(total / 12);
  const month = total % 12;
  const day = Math.min(at.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  return Date.UTC(year, month, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()) + ms;
}

const NUMBER = '[0-9]+(?:\\.[0-9]+)?';

/**
 * What `parseDuration` reads, as a pattern without anchors (its surrounding spaces aside): shorthand,
 * lowercase, each unit once from the largest down; or ISO 8601 weeks, days and time, in either case,
 * with at least one component; each number of at most 6 digits and 3 decimals, so that every sum is
 * a whole number of milliseconds. How long it may be is each field's own rule.
 */
const BOUNDED = '[0-9]{1,6}(?:\\.[0-9]{1,3})?';
export const DURATION_PATTERN =
  `(?:(?=[0-9])(?:${BOUNDED}w)?(?:${BOUNDED}d)?(?:${BOUNDED}h)?(?:${BOUNDED}m)?(?:${BOUNDED}s)?(?:${BOUNDED}ms)?` +
  `|[Pp](?:(?:${BOUNDED}[Ww])?(?:${BOUNDED}[Dd])?[Tt](?=[0-9])(?:${BOUNDED}[Hh])?(?:${BOUNDED}[Mm])?(?:${BOUNDED}[Ss])?|(?=[0-9])(?:${BOUNDED}[Ww])?(?:${BOUNDED}[Dd])?))`;
const TIME = `(?:${NUMBER}[Hh](?:${NUMBER}[Mm])?(?:${NUMBER}[Ss])?|${NUMBER}[Mm](?:${NUMBER}[Ss])?|${NUMBER}[Ss])`;
const DAYS = `(?:${NUMBER}[Ww](?:${NUMBER}[Dd])?|${NUMBER}[Dd])`;
/** Shorthand: at least one part, from the largest unit down, each unit once, lowercase; years and months whole. */
const SHORTHAND = `(?=[0-9])(?:[0-9]+y)?(?:[0-9]+mo)?(?:${NUMBER}w)?(?:${NUMBER}d)?(?:${NUMBER}h)?(?:${NUMBER}m)?(?:${NUMBER}s)?(?:${NUMBER}ms)?`;

/**
 * What `parseCalendarDuration` reads, as a pattern for the documents (surrounding spaces aside, as
 * it trims): shorthand (compound, lowercase), or ISO 8601 in either case, with at least one component and nothing after
 * a `T` missing. That the duration is more than zero once in milliseconds is the reader's rule alone.
 */
export const CALENDAR_DURATION_PATTERN =
  `^\\s*(?:${SHORTHAND}` +
  `|[Pp](?:${DAYS}(?:[Tt]${TIME})?|[Tt]${TIME})` +
  `|[Pp](?:[0-9]+[Yy](?:[0-9]+[Mm])?|[0-9]+[Mm])(?:${NUMBER}[Ww])?(?:${NUMBER}[Dd])?(?:[Tt]${TIME})?)\\s*$`;
