/**
 * The sandbox's own money controls (docs/money-path.md: The money path), beside the simulator
 * mirror under /_sandbox/simulator: capture a hold whole, in part or in several captures, update a
 * pending authorisation's amount, post a debit with no authorisation, reverse a debit, refund on a
 * card, block, suspend or reinstate a card, fail an account not yet deployed; and the programme's
 * fees, /_sandbox/fees, and rates, /_sandbox/rates. Each route reads its input and answers; the rules are the domain's and the
 * services apply them. Like the mirror, the simulator's controls are absent with --env production.
 */
import type { Deps } from '../../deps.js';
import { Account } from '../../wire/account.js';
import { Card } from '../../wire/card.js';
import { Fees, FeeSettingsInput } from '../../wire/fees.js';
import { AmountUpdateRequest, CaptureRequest, ForcePostRequest, RefundRequest } from '../../wire/money-path.js';
import { Authorisation, Transaction } from '../../wire/payment.js';
import { MovedRatesInput, Rates } from '../../wire/rates.js';
import { answer } from '../answer.js';
import { controlRoute } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { servicesOf } from '../env.js';
import { idParam, jsonResponse, problem } from '../schemas.js';

const simulator: [string] = ['Simulator'];
const conflict = { 409: problem('Invalid state transition: the problem names the state the control needs') };

export function controlMoneyRoutes(control: ControlPlane, deps: Deps): void {
  controlRoute(
    control,
    {
      method: 'get',
      path: '/fees',
      operationId: 'getFees',
      summary: "The fees the programme's new transactions carry",
      tags: ['Fees'],
      responses: { 200: jsonResponse(Fees) },
    },
    (c) => answer(c, servicesOf(c).fees.get()),
  );
  controlRoute(
    control,
    {
      method: 'put',
      path: '/fees',
      operationId: 'setFees',
      summary: 'Set the fees of every transaction made from now on, each type a percentage ("0.5%") or a fixed token amount ("0.10"); {} for none',
      tags: ['Fees'],
      body: FeeSettingsInput,
      responses: { 200: jsonResponse(Fees) },
    },
    (c, { body }) => answer(c, servicesOf(c).fees.set(body)),
  );

  controlRoute(
    control,
    {
      method: 'get',
      path: '/rates',
      operationId: 'getRates',
      summary: "The exchange rates the programme's conversions use now, and those it moved from the shipped table",
      tags: ['Rates'],
      responses: { 200: jsonResponse(Rates) },
    },
    (c) => answer(c, servicesOf(c).rates.get()),
  );
  controlRoute(
    control,
    {
      method: 'put',
      path: '/rates',
      operationId: 'setRates',
      summary:
        'Move exchange rates, units per USD ({"EUR":"0.95"}), for every conversion from now on — a capture converts at the rate of its own time; {} for the shipped table',
      tags: ['Rates'],
      body: MovedRatesInput(deps.shared.money.rates),
      responses: { 200: jsonResponse(Rates) },
    },
    (c, { body }) => answer(c, servicesOf(c).rates.set(body)),
  );

  if (deps.config.env === 'production') return;

  controlRoute(
    control,
    {
      method: 'patch',
      path: '/simulator/authorisations/{authorisationId}/capture',
      // The mirror's operation id: this is /v1's capture, with a partial amount and several captures besides.
      operationId: 'simulateCardAuthorisationCapture',
      summary:
        'Capture a pending authorisation created with capture: false, what is left or `amount` of it: the last capture (final, the default) is captured 1 s later and releases the rest; `final: false` makes its debit now and keeps the rest held',
      tags: simulator,
      params: idParam('authorisationId'),
      body: CaptureRequest,
      bodyOptional: true,
      responses: {
        202: { description: 'Accepted: the authorisation is capturing and is captured one second later, or (final: false) still pending, its debit made' },
        404: problem('Authorisation not found'),
      },
    },
    (c, { params, body }) => {
      servicesOf(c).authorisations.capture(params.authorisationId, body.amount, body.final);
      return c.body(null, 202);
    },
  );
  controlRoute(
    control,
    {
      method: 'patch',
      path: '/simulator/authorisations/{authorisationId}/amount',
      operationId: 'updateAuthorisationAmount',
      summary: 'Raise (incremental) or lower (partial reversal) a pending authorisation: same status, its hold following, an authorisation.updated event',
      tags: simulator,
      params: idParam('authorisationId'),
      body: AmountUpdateRequest,
      responses: { 200: jsonResponse(Authorisation, 'The authorisation'), 404: problem('Authorisation not found'), ...conflict },
    },
    (c, { params, body }) => answer(c, servicesOf(c).authorisations.updateAmount(params.authorisationId, body.amount)),
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/simulator/cards/{cardId}/transactions',
      operationId: 'forcePostTransaction',
      summary: 'A debit with no authorisation (force post, late presentment): processing, then processed 1 s later',
      tags: simulator,
      params: idParam('cardId'),
      body: ForcePostRequest(deps.shared.money.currencies),
      responses: { 201: jsonResponse(Transaction, 'The debit transaction'), 404: problem('Card not found') },
    },
    (c, { params, body }) => answer(c, servicesOf(c).authorisations.forcePost(params.cardId, body), 201),
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/simulator/transactions/{transactionId}/reverse',
      operationId: 'reverseTransaction',
      summary: 'Reverse a processed debit: reversing now, reversed 1 s later',
      tags: simulator,
      params: idParam('transactionId'),
      responses: { 202: jsonResponse(Transaction, 'The transaction, reversing'), 404: problem('Transaction not found'), ...conflict },
    },
    (c, { params }) => answer(c, servicesOf(c).transactions.reverse(params.transactionId), 202),
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/simulator/cards/{cardId}/refund',
      operationId: 'refundCard',
      summary: "A merchant's refund on a card: a new credit transaction, processing, then processed 1 s later",
      tags: simulator,
      params: idParam('cardId'),
      body: RefundRequest(deps.shared.money.currencies),
      responses: { 201: jsonResponse(Transaction, 'The credit transaction'), 404: problem('Card (or the transaction named) not found'), ...conflict },
    },
    (c, { params, body }) => answer(c, servicesOf(c).refunds.refund(params.cardId, body), 201),
  );
  const cardMoves = [
    ['block', 'blockCard', 'The issuer blocks an active or suspended card: it takes no payment and cannot be activated'],
    ['suspend', 'suspendCard', 'The issuer suspends an active card for a while'],
    ['reinstate', 'reinstateCard', 'The issuer lets a suspended card take payments again (blocked is final)'],
  ] as const;
  for (const [move, operationId, summary] of cardMoves) {
    controlRoute(
      control,
      {
        method: 'patch',
        path: `/simulator/cards/{cardId}/${move}`,
        operationId,
        summary,
        tags: simulator,
        params: idParam('cardId'),
        responses: { 200: jsonResponse(Card, 'The card'), 404: problem('Card not found'), ...conflict },
      },
      (c, { params }) => answer(c, servicesOf(c).cards[move](params.cardId)),
    );
  }
  controlRoute(
    control,
    {
      method: 'patch',
      path: '/simulator/accounts/{accountId}/fail',
      operationId: 'failAccount',
      summary: 'Fail an account whose deployment has not finished (initiating or pending)',
      tags: simulator,
      params: idParam('accountId'),
      responses: { 200: jsonResponse(Account, 'The account'), 404: problem('Account not found'), ...conflict },
    },
    (c, { params }) => answer(c, servicesOf(c).accounts.fail(params.accountId)),
  );
}
