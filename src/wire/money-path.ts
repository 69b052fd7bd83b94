/**
 * The bodies of the sandbox's own money controls (docs/money-path.md: The money path): a capture's
 * amount and whether it is the last, an amount update, a refund and a force post. Their answers are the API's own Authorisation and Transaction.
 */
import { z } from 'zod';
import { Uuid } from '../domain/formats.js';
import { amountPattern, amountProblems, type MoneyTables } from '../domain/money.js';
import { amountRules, anyAmountPattern } from './amount.js';
import { MerchantOverride } from './payment.js';
import { AmountInput, CurrencyInput, oneOfPattern } from './scalars.js';

/** The most minor-unit digits an ISO 4217 currency has: what an amount in an authorisation's currency may have at most. */
const MAX_MINOR_DIGITS = 4;

const amount = (description: string) => AmountInput.meta({ format: 'decimal', description });

/** PATCH /_sandbox/simulator/authorisations/{id}/capture: without `amount`, what is left of the authorisation. */
export const CaptureRequest = z
  .strictObject({
    amount: amount(
      "The part to capture, in the authorisation's currency: > 0, at most its currency's minor-unit digits and, with the captures before it, at most its amount (a tip more at the tip categories)",
    )
      .meta({ pattern: amountPattern(MAX_MINOR_DIGITS) })
      .optional(),
    final: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .meta({ description: 'false: a capture of part, the authorisation staying pending with the rest held; true (the default): the last, the rest released' }),
  })
  .superRefine((body, ctx) => {
    if (body.final === false && body.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'is needed when final is false: the part to capture' });
  })
  // A part (`final: false`) names its amount.
  .meta({ id: 'CaptureRequest', not: { required: ['final'], properties: { final: { enum: [false] } }, not: { required: ['amount'] } } });
export type CaptureRequest = z.infer<typeof CaptureRequest>;

/** PATCH /_sandbox/simulator/authorisations/{id}/amount: a pending authorisation's new amount. */
export const AmountUpdateRequest = z
  .strictObject({
    amount: amount("The authorisation's new amount, in its currency: > 0 and more than its captures took; its hold follows").meta({
      pattern: amountPattern(MAX_MINOR_DIGITS),
    }),
  })
  .meta({ id: 'AmountUpdateRequest' });
export type AmountUpdateRequest = z.infer<typeof AmountUpdateRequest>;

/**
 * A payment's amount, currency and merchant, the amount checked against the minor-unit digits of its
 * currency; the document names the currencies the rate table converts from, and each one's digits.
 */
export const payment = <T extends z.core.$ZodLooseShape>({ currencies, rates }: MoneyTables, what: string, more: T) => {
  const convertible = Object.fromEntries(Object.entries(currencies).filter(([code]) => Object.hasOwn(rates.rates, code)));
  return (
    z
      .strictObject({
        amount: amount(`Amount the merchant ${what} in \`currency\`, > 0, at most its ISO 4217 minor-unit digits`).meta({
          pattern: anyAmountPattern(convertible),
        }),
        currency: CurrencyInput.meta({
          pattern: oneOfPattern(Object.keys(convertible)),
          description: 'Merchant currency (ISO 4217), one the sandbox has a rate for',
        }),
        merchant: MerchantOverride.optional(),
        ...more,
      })
      // Runs even when other fields failed, so that one answer names every bad field.
      .superRefine(
        (body, ctx) => {
          const { amount, currency } = body as { amount: unknown; currency: unknown };
          for (const { path, message } of amountProblems(amount, currency, currencies)) ctx.addIssue({ code: 'custom', path: [path], message });
        },
        { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
      )
      .meta(amountRules(convertible))
  );
};

/** POST /_sandbox/simulator/cards/{cardId}/refund. */
export const RefundRequest = (money: MoneyTables) =>
  payment(money, 'gives back', {
    transactionId: Uuid.toLowerCase().optional().meta({ description: 'The debit it gives back (part of): the refund is linked to its authorisation' }),
  }).meta({ id: 'RefundRequest' });
export type RefundRequest = z.output<ReturnType<typeof RefundRequest>>;

/** POST /_sandbox/simulator/cards/{cardId}/transactions: a debit with no authorisation. */
export const ForcePostRequest = (money: MoneyTables) => payment(money, 'takes', {}).meta({ id: 'ForcePostRequest' });
export type ForcePostRequest = z.output<ReturnType<typeof ForcePostRequest>>;
