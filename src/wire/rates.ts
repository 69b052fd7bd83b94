/**
 * The programme's rates on the control plane (docs/money-path.md: Moving rates): PUT /_sandbox/rates
 * takes the rates to move, units of a currency per one USD as in the shipped table, `{}` for the
 * table itself; GET and PUT answer the table as moved, and what was moved.
 */
import { z } from 'zod';
import type { RateTable } from '../domain/money.js';
import { movedRatesProblems, normaliseMoved } from '../domain/rates.js';

/** PUT /_sandbox/rates: the whole of what is moved, replacing what was; each key a currency of `table` but its base. */
export const MovedRatesInput = (table: RateTable) =>
  z
    .record(z.string(), z.unknown(), { error: 'must be a JSON object of currencies and rates, such as {"EUR":"0.95"}' })
    .superRefine((moved, ctx) => {
      for (const { path, message } of movedRatesProblems(moved, table)) ctx.addIssue({ code: 'custom', path: [path], message });
    })
    .transform((moved) => normaliseMoved(moved as Record<string, string>, table))
    .meta({ description: 'Units of each currency per one USD, as decimal strings ("0.95"); a currency left out keeps the shipped rate' });

const RateMap = z.record(z.string(), z.string());

/** What GET and PUT /_sandbox/rates answer. */
export const Rates = z
  .object({
    base: z.string().meta({ description: 'The currency every rate is per one unit of' }),
    rates: RateMap.meta({ description: 'Units of each currency per one unit of base, as conversions use them now' }),
    moved: RateMap.meta({ description: 'The rates the programme moved from the shipped table; {} for none' }),
  })
  .meta({ id: 'Rates' });
