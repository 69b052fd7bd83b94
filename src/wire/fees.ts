/**
 * The programme's fees on the control plane (docs/money-path.md: Fees): GET and PUT /_sandbox/fees
 * answer and take the same object, each fee type a percentage (`"0.5%"`) or a fixed token amount
 * (`"0.10"`), a type left out not charged. Snapshots hold it too.
 */
import { z } from 'zod';
import { FEE_PATTERN, feeProblem, normaliseFee, type FeeSettings } from '../domain/fees.js';
import { FEE_TYPES } from '../domain/transaction.js';

const spec = z
  .string({ error: 'must be a string such as "0.5%" or "0.10"' })
  .superRefine((value, ctx) => {
    const problem = feeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normaliseFee)
  .optional()
  .meta({
    pattern: FEE_PATTERN,
    description: 'A percentage of the token amount ("0.5%", up to 100%) or a fixed token amount ("0.10"), more than zero; left out, not charged',
  });

/** PUT /_sandbox/fees: the whole settings, replacing what was set; `{}` charges nothing. */
export const FeeSettingsInput = z.strictObject(Object.fromEntries(FEE_TYPES.map((type) => [type, spec])) as Record<(typeof FEE_TYPES)[number], typeof spec>, {
  error: (issue) =>
    issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a fee type; the fee types are ${FEE_TYPES.join(', ')}` : 'must be a JSON object',
});

/** What GET and PUT /_sandbox/fees answer: the fees set, in their normal form. */
export const Fees = z
  .object(Object.fromEntries(FEE_TYPES.map((type) => [type, z.string().optional()])) as Record<(typeof FEE_TYPES)[number], z.ZodOptional<z.ZodString>>)
  .meta({ id: 'Fees' });

export type { FeeSettings };
