/**
 * The bodies of the sandbox's own money controls (docs/money-path.md: The money path): a partial
 * capture's amount and a refund. Their answers are the API's own Authorisation and Transaction.
 */
import { z } from 'zod';
import { Uuid } from '../domain/formats.js';
import { amountProblems, type MoneyTables } from '../domain/money.js';
import { MerchantOverride } from './payment.js';
import { AmountInput, CurrencyInput } from './scalars.js';

const amount = (description: string) => AmountInput.meta({ format: 'decimal', description });

/** PATCH /_sandbox/simulator/authorisations/{id}/capture: without `amount`, the whole authorisation. */
export const CaptureRequest = z
  .strictObject({ amount: amount("The part to capture, in the authorisation's currency: > 0 and at most its amount; the rest is released").optional() })
  .meta({ id: 'CaptureRequest' });
export type CaptureRequest = z.infer<typeof CaptureRequest>;

/** POST /_sandbox/simulator/cards/{cardId}/refund: the amount is checked against the minor-unit digits of `currencies`. */
export const RefundRequest = (currencies: MoneyTables['currencies']) =>
  z
    .strictObject({
      amount: amount('Amount the merchant gives back in `currency`, > 0, at most its ISO 4217 minor-unit digits'),
      currency: CurrencyInput.meta({ description: 'Merchant currency (ISO 4217)' }),
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
    .meta({ id: 'RefundRequest' });
export type RefundRequest = z.output<ReturnType<typeof RefundRequest>>;
