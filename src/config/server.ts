/**
 * Options of the process itself: where it listens, where it keeps its state, how it logs.
 */
import { bool, int, str } from './parsers.js';
import { spec } from './spec.js';

export const SERVER_OPTIONS = [
  spec({
    key: 'port',
    flag: '--port <port>',
    env: 'CARD_SANDBOX_PORT',
    default: 4242,
    parse: int(0, 65535),
    doc: 'TCP port to listen on (0 picks a free one)',
  }),
  spec({
    key: 'host',
    flag: '--host <host>',
    env: 'CARD_SANDBOX_HOST',
    default: '127.0.0.1',
    parse: str,
    doc: 'Address to bind; the API and the control plane bind together',
  }),
  spec({
    key: 'db',
    flag: '--db <file>',
    env: 'CARD_SANDBOX_DB',
    default: ':memory:',
    parse: str,
    doc: 'SQLite database file; `:memory:` keeps nothing after exit',
  }),
  spec({
    key: 'jsonLogs',
    flag: '--json',
    env: 'CARD_SANDBOX_JSON_LOGS',
    default: false,
    parse: bool,
    doc: 'Log one JSON object per line instead of readable lines, the ready line first',
  }),
] as const;
