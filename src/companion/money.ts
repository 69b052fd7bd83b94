/**
 * The money path's controls in the test companion (docs/companion.md: The money path): the
 * sandbox's own simulator controls — capture a hold in one or several parts, update its amount,
 * post a debit with no authorisation, reverse a debit, refund on a card, block, suspend or
 * reinstate a card, fail an account, read or set an account's balance — and the programme's fees
 * and rates, each one call of the control plane (docs/money-path.md).
 */
import type { Account, Authorisation, Card, Fees, Funds, Operations, Rates, Transaction } from '../client/control.generated.js';
import type { ControlClient } from '../client/control.js';

/** The body of a refund: `{ amount, currency, merchant?, transactionId? }`. */
export type Refund = Operations['refundCard']['args'][1];

/** The body of a force post: `{ amount, currency, merchant? }`. */
export type ForcePost = Operations['forcePostTransaction']['args'][1];

export interface SandboxSimulator {
  /**
   * Captures a hold made with `capture: false`: what is left of it, or `amount` of its currency,
   * captured 1 s of sandbox time later with the rest released; with `{ final: false }`, a part
   * whose debit is made now, the authorisation staying pending with the rest held.
   */
  capture(authorisationId: string, amount?: string, options?: { final?: boolean }): Promise<void>;
  /** Raises or lowers a pending authorisation's amount (in its currency); its hold follows. */
  updateAmount(authorisationId: string, amount: string): Promise<Authorisation>;
  /** A debit with no authorisation on the card: `processing` now, `processed` 1 s later. */
  forcePost(cardId: string, payment: ForcePost): Promise<Transaction>;
  /** Reverses a processed debit: `reversing` now, `reversed` 1 s later. */
  reverse(transactionId: string): Promise<Transaction>;
  /** A merchant's refund: a new credit transaction on the card's account, linked to the debit `transactionId` names. */
  refund(cardId: string, refund: Refund): Promise<Transaction>;
  blockCard(cardId: string): Promise<Card>;
  suspendCard(cardId: string): Promise<Card>;
  reinstateCard(cardId: string): Promise<Card>;
  /** Fails an account still initiating or pending. */
  failAccount(accountId: string): Promise<Account>;
  /** The account's funds in its currency: `{ balance, held, available }` (docs/money-path.md: Funds). */
  balance(accountId: string): Promise<Funds>;
  /** Sets the account's balance (`"100"`); what is held stays held. */
  setBalance(accountId: string, amount: string): Promise<Funds>;
}

export interface SandboxFees {
  get(): Promise<Fees>;
  /** Every transaction made from now on carries these: each type a percentage (`"0.5%"`) or a fixed token amount (`"0.10"`). */
  set(fees: Fees): Promise<Fees>;
  clear(): Promise<void>;
}

export interface SandboxRates {
  /** The rates conversions use now (units per USD) and those moved: `{ base, rates, moved }`. */
  get(): Promise<Rates>;
  /** Moves rates (`{ EUR: '0.95' }`) for every conversion from now on, replacing what was moved; a capture converts at the rate of its own time. */
  set(moved: Record<string, string>): Promise<Rates>;
  /** Back to the shipped rate table. */
  reset(): Promise<Rates>;
}

export function simulatorOf(control: ControlClient): SandboxSimulator {
  return {
    capture: async (authorisationId, amount, { final } = {}) => {
      const body = { ...(amount !== undefined && { amount }), ...(final !== undefined && { final }) };
      await control.simulateCardAuthorisationCapture(authorisationId, Object.keys(body).length ? body : undefined);
    },
    updateAmount: (authorisationId, amount) => control.updateAuthorisationAmount(authorisationId, { amount }),
    forcePost: (cardId, payment) => control.forcePostTransaction(cardId, payment),
    reverse: (transactionId) => control.reverseTransaction(transactionId),
    refund: (cardId, refund) => control.refundCard(cardId, refund),
    blockCard: (cardId) => control.blockCard(cardId),
    suspendCard: (cardId) => control.suspendCard(cardId),
    reinstateCard: (cardId) => control.reinstateCard(cardId),
    failAccount: (accountId) => control.failAccount(accountId),
    balance: (accountId) => control.getBalance(accountId),
    setBalance: (accountId, amount) => control.setBalance(accountId, { amount }),
  };
}

export function feesOf(control: ControlClient): SandboxFees {
  return {
    get: () => control.getFees(),
    set: (fees) => control.setFees(fees),
    clear: async () => {
      await control.setFees({});
    },
  };
}

export function ratesOf(control: ControlClient): SandboxRates {
  return {
    get: () => control.getRates(),
    set: (moved) => control.setRates(moved),
    reset: () => control.setRates({}),
  };
}
