/**
 * Options of issuing and the money path: the cards issued, how long holds wait and what new accounts hold.
 */
import { DEFAULT_HOLD_EXPIRY_MS, holdExpiryProblem } from '../domain/authorisation.js';
import { parseDuration } from '../domain/duration.js';
import { balanceProblem, DEFAULT_STARTING_BALANCE } from '../domain/funds.js';
import { normalise } from '../domain/money.js';
import { NETWORKS, type Network } from '../domain/pan.js';
import { bool, ConfigError, oneOf, str } from './parsers.js';
import { spec } from './spec.js';

export const ISSUING_OPTIONS = [
  spec({
    key: 'physicalCards',
    flag: '--physical-cards',
    env: 'CARD_SANDBOX_PHYSICAL_CARDS',
    default: false,
    parse: bool,
    doc: 'Allow physical cards (then `shippingAddress` is required)',
  }),
  spec({
    key: 'cardholderName',
    flag: '--cardholder-name <name>',
    env: 'CARD_SANDBOX_CARDHOLDER_NAME',
    default: 'SANDBOX CARDHOLDER',
    parse: str,
    doc: 'Name printed on issued cards',
  }),
  spec({
    key: 'network',
    flag: '--network <network>',
    env: 'CARD_SANDBOX_NETWORK',
    default: 'visa' as Network,
    parse: oneOf(NETWORKS),
    doc: 'Network of issued cards',
  }),
  spec({
    key: 'holdExpiryMs',
    flag: '--hold-expiry <duration>',
    env: 'CARD_SANDBOX_HOLD_EXPIRY',
    default: DEFAULT_HOLD_EXPIRY_MS,
    defaultText: '7d',
    doc: 'How long a pending authorisation (a hold) waits in sandbox time to be captured before it is released, in programmes made without their own `holdExpiry` (docs/money-path.md: Holds that expire)',
    parse: (raw) => {
      const ms = parseDuration(raw);
      const problem = holdExpiryProblem(ms);
      if (problem) throw new ConfigError(`${problem}, got "${raw}"`);
      return ms!;
    },
  }),
  spec({
    key: 'startingBalance',
    flag: '--starting-balance <amount>',
    env: 'CARD_SANDBOX_STARTING_BALANCE',
    default: DEFAULT_STARTING_BALANCE,
    doc: "The balance a new account's smart account starts with, in its currency, in programmes made without their own `startingBalance` (docs/money-path.md: Funds)",
    parse: (raw) => {
      const problem = balanceProblem(raw);
      if (problem) throw new ConfigError(problem);
      return normalise(raw);
    },
  }),
] as const;
