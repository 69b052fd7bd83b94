/**
 * The bodies of the sandbox's own money controls (docs/money-path.md: The money path): a partial
 * capture's amount and a refund. Their answers are the API's own Authorisation and Transaction.
 */
import { z } from 'zod';
import { Uuid } from '../domain/formats.js';
import { amountPattern, amountProblems, type MoneyTables } from '../domain/money.js';
import { MerchantOverride } from './payment.js';
import { amountRules, anyAmountPattern } from './amount.js';
import { AmountInput, CurrencyInput, oneOfPattern } from './scalars.js';

/** The most minor-unit digits an ISO 4217 currency has. */
const MAX_MINOR_DIGITS = 4;

const amount = (description: string) => AmountInput.meta({ format: 'decimal', description });

/** PATCH /_sandbox/simulator/authorisations/{id}/capture: without `amount`, the whole authorisation. */
export const CaptureRequest = z
  .strictObject({
    amount: amount("The part to capture, in the authorisation's currency: > 0, at most its amount and its currency's minor-unit digits; the rest is released")
      .meta({ pattern: amountPattern(MAX_MINOR_DIGITS) })
      .optional(),
  })
  .meta({ id: 'CaptureRequest' });
export type CaptureRequest = z.infer<typeof CaptureRequest>;

/**
 * POST /_sandbox/simulator/cards/{cardId}/refund: the amount is checked against the minor-unit digits
 * of `currencies`; the document names the currencies the rate table converts from.
 */
export const RefundRequest = ({ currencies, rates }: MoneyTables) => {
  const convertible = Object.fromEntries(Object.entries(currencies).filter(([code]) => Object.hasOwn(rates.rates, code)));
  return (
    z
      .strictObject({
        amount: amount('Amount the merchant gives back in `currency`, > 0, at most its ISO 4217 minor-unit digits').meta({
          pattern: anyAmountPattern(convertible),
        }),
        currency: CurrencyInput.meta({
          pattern: oneOfPattern(Object.keys(convertible)),
          description: 'Merchant currency (ISO 4217), one the sandbox has a rate for',
        }),
        merchant: MerchantOverride.optional(),
        transactionId: Uuid.toLowerCase().optional().meta({ description: 'The debit it gives back (part of): the refund is linked to its authorisation' }),
      })
      // Runs even when other fields failed, so that one answer names every bad field.
      .superRefine(
        (body, ctx) => {
          for (const { path, message } of amountProblems(body.amount, body.currency, currencies)) ctx.addIssue({ code: 'custom', path: [path], message });
        },
        { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
      )
      .meta({ id: 'RefundRequest', ...amountRules(convertible) })
  );
};
export type RefundRequest = z.output<ReturnType<typeof RefundRequest>>;
