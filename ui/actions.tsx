/**
 * The simulator's actions (docs/inspector.md: The inspector — Simulator): verify or reject a customer waiting
 * for KYC, issue or fail a card being issued, authorise on an active card, capture (whole or in
 * part) or release a pending authorisation; and the money path's (docs/money-path.md): block,
 * suspend or reinstate a card, refund on it, reverse a debit, fail an account not yet deployed,
 * update a hold's amount, force post a debit, set a balance.
 * Each calls the control plane's /_sandbox/simulator routes, the same code as /v1/simulator/* and
 * the CLI. Which states allow which action comes from the server's own state tables.
 */
import { useState } from 'preact/hooks';
import { ACCOUNT_MACHINE } from '../src/domain/account.js';
import { CARD_MACHINE } from '../src/domain/card.js';
import { CUSTOMER_MACHINE } from '../src/domain/customer.js';
import { REFUNDABLE_CARDS } from '../src/domain/refund.js';
import { TRANSACTION_MACHINE } from '../src/domain/transaction.js';
import { control } from './api.js';
import type { Authorisation, AuthorisationRequest, ForcePostRequest, RefundRequest, Transaction } from './api-types.js';
import { Action, Failure } from './components.js';
import { health } from './live.js';
import { href } from './route.js';
import { useSignal } from './state.js';
import type { TreeRow } from './tree.js';

export const canVerify = (status: string) => status in CUSTOMER_MACHINE.actions.verify.from;
export const canIssue = (status: string) => status in CARD_MACHINE.actions.issue.from;
/** Only a pending authorisation (created with `capture: false`) is captured or released by hand (docs/api.md: Authorisations and transactions). */
export const canSettle = (status: string) => status === 'pending';
export const canBlock = (status: string) => status in CARD_MACHINE.actions.block.from;
export const canSuspend = (status: string) => status in CARD_MACHINE.actions.suspend.from;
export const canReinstate = (status: string) => status in CARD_MACHINE.actions.reinstate.from;
export const canRefund = (status: string) => (REFUNDABLE_CARDS as readonly string[]).includes(status);
export const canFailAccount = (status: string) => status in ACCOUNT_MACHINE.actions.fail.from;
/** Only a debit is reversed (docs/money-path.md: Reversals). */
export const canReverse = (row: { status?: string | undefined; json: Record<string, unknown> }) =>
  row.json.direction === 'debit' && (row.status ?? '') in TRANSACTION_MACHINE.actions.reverse.from;

export const simulate = {
  verify: (id: string) => control.simulateVerifyCustomer(id),
  reject: (id: string) => control.simulateRejectCustomer(id),
  issue: (id: string) => control.simulateIssueCard(id),
  fail: (id: string) => control.simulateCardFail(id),
  /** The rest of a hold, or `amount` of it; `final: false` a part, the authorisation staying pending (docs/money-path.md: Several captures of one hold). */
  capture: (id: string, amount?: string, final = true) =>
    control.simulateCardAuthorisationCapture(id, amount || !final ? { ...(amount && { amount }), ...(!final && { final }) } : undefined),
  updateAmount: (id: string, amount: string) => control.updateAuthorisationAmount(id, { amount }),
  forcePost: (cardId: string, request: ForcePostRequest): Promise<Transaction> => control.forcePostTransaction(cardId, request),
  setBalance: (accountId: string, amount: string) => control.setBalance(accountId, { amount }),
  release: (id: string) => control.simulateCardAuthorisationRelease(id),
  authorise: (cardId: string, request: AuthorisationRequest): Promise<Authorisation> => control.simulateCardAuthorisation(cardId, request),
  block: (id: string) => control.blockCard(id),
  suspend: (id: string) => control.suspendCard(id),
  reinstate: (id: string) => control.reinstateCard(id),
  failAccount: (id: string) => control.failAccount(id),
  reverse: (id: string) => control.reverseTransaction(id),
  refund: (cardId: string, request: RefundRequest): Promise<Transaction> => control.refundCard(cardId, request),
};

/** What each action says once the sandbox has taken it: one text for the World view's buttons and the Simulator's. */
export const DONE = {
  verify: 'KYC passed: the customer is active.',
  reject: 'KYC failed: the customer is rejected.',
  issue: 'The card is issued and active.',
  fail: 'Issuance failed: the card is issue_failed.',
  capture: 'Capturing: captured 1 s of sandbox time later.',
  capturePart: 'A debit for the part now; the authorisation stays pending with the rest held.',
  release: 'Releasing: released 1 s of sandbox time later.',
  block: 'The card is blocked: it takes no payment; its holds stay capturable for 30 days.',
  suspend: 'The card is suspended: it takes no payment until it is reinstated.',
  reinstate: 'The card is reinstated.',
  failAccount: 'The account failed: it will never be deployed.',
  reverse: 'Reversing: reversed 1 s of sandbox time later.',
};

export type Outcome = { done: string } | { error: unknown } | undefined;

/** What an action came to: a line saying what happened, or the refusal. */
export function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if ('error' in outcome) return <Failure error={outcome.error} />;
  return (
    <p class="done" role="status">
      {outcome.done}
    </p>
  );
}

/** The buttons that apply to this resource in its current state, on the World view. */
export function ResourceActions({ row }: { row: TreeRow }) {
  const [outcome, setOutcome] = useState<Outcome>();
  // With --env production there is no simulator (docs/api.md: API behaviour).
  const production = useSignal(health)?.env === 'production';
  const after = (done: string) => (error?: unknown) => setOutcome(error ? { error } : { done });
  const status = row.status ?? '';
  const buttons = [];
  if (row.kind === 'customer' && canVerify(status)) {
    buttons.push(<Action key="verify" kind="primary" label="Verify customer" action={() => simulate.verify(row.id)} onDone={after(DONE.verify)} />);
    buttons.push(<Action key="reject" kind="danger" label="Reject customer" action={() => simulate.reject(row.id)} onDone={after(DONE.reject)} />);
  }
  if (row.kind === 'card' && canIssue(status)) {
    buttons.push(<Action key="issue" kind="primary" label="Issue card" action={() => simulate.issue(row.id)} onDone={after(DONE.issue)} />);
    buttons.push(<Action key="fail" kind="danger" label="Fail issuance" action={() => simulate.fail(row.id)} onDone={after(DONE.fail)} />);
  }
  if (row.kind === 'card' && status === 'active') {
    buttons.push(
      <a key="authorise" class="button" href={href('simulator', undefined, { card: row.id })}>
        Authorise a payment…
      </a>,
    );
  }
  if (row.kind === 'card') {
    if (canSuspend(status)) buttons.push(<Action key="suspend" label="Suspend card" action={() => simulate.suspend(row.id)} onDone={after(DONE.suspend)} />);
    if (canBlock(status))
      buttons.push(<Action key="block" kind="danger" label="Block card" action={() => simulate.block(row.id)} onDone={after(DONE.block)} />);
    if (canReinstate(status))
      buttons.push(<Action key="reinstate" kind="primary" label="Reinstate card" action={() => simulate.reinstate(row.id)} onDone={after(DONE.reinstate)} />);
    if (canRefund(status))
      buttons.push(
        <a key="refund" class="button" href={href('simulator', undefined, { refund: row.id })}>
          Refund…
        </a>,
      );
  }
  if (row.kind === 'account' && canFailAccount(status))
    buttons.push(<Action key="fail-account" kind="danger" label="Fail account" action={() => simulate.failAccount(row.id)} onDone={after(DONE.failAccount)} />);
  if (row.kind === 'authorisation' && canSettle(status)) {
    buttons.push(<Action key="capture" kind="primary" label="Capture" action={() => simulate.capture(row.id)} onDone={after(DONE.capture)} />);
    buttons.push(<Action key="release" label="Release" action={() => simulate.release(row.id)} onDone={after(DONE.release)} />);
    buttons.push(
      <a key="partial" class="button" href={href('simulator', undefined, { authorisation: row.id })}>
        Capture part…
      </a>,
    );
  }
  if (row.kind === 'transaction' && canReverse(row))
    buttons.push(<Action key="reverse" kind="danger" label="Reverse" action={() => simulate.reverse(row.id)} onDone={after(DONE.reverse)} />);
  if (production || (buttons.length === 0 && !outcome)) return null;
  return (
    <div class="resource-actions">
      <div class="row">{buttons}</div>
      <OutcomeLine outcome={outcome} />
    </div>
  );
}
