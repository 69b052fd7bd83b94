/**
 * An account's funds on the control plane (docs/money-path.md: Funds): GET and PUT
 * /_sandbox/simulator/accounts/{id}/balance answer its balance, what is held and what is available,
 * in its currency; PUT takes the new balance.
 */
import { z } from 'zod';
import { balanceProblem } from '../domain/funds.js';
import { normalise } from '../domain/money.js';

const decimal = (description: string) => z.string().meta({ format: 'decimal', description });

export const Funds = z
  .object({
    balance: decimal("What the account's smart account holds, in its currency"),
    held: decimal('What its pending authorisations hold in escrow'),
    available: decimal('What a new authorisation may take: balance less held (negative when a capture beyond it overdrew the account)'),
  })
  .meta({ id: 'Funds' });

/** A balance as a body gives it: a decimal string, 0 or more, at most two fraction digits. */
export const Balance = z.string({ error: 'must be a decimal string such as "100"' }).superRefine((value, ctx) => {
  const problem = balanceProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** PUT …/balance: the balance to set. */
export const BalanceInput = z
  .strictObject(
    {
      amount: Balance.transform(normalise).meta({
        format: 'decimal',
        description: "The new balance in the account's currency: 0 or more, at most 2 fraction digits",
      }),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: unknown; the body is {amount}` : 'must be a JSON object') },
  )
  .meta({ id: 'BalanceInput' });
export type BalanceInput = z.output<typeof BalanceInput>;
