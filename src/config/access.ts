/**
 * Options of who may call the sandbox and how it proves itself: names it answers, credentials,
 * request checks, the keys that sign, the control plane's token, where webhooks may go and how long
 * a receiver has to answer.
 */
import { MAX_ADVANCE_MS } from '../domain/time-travel.js';
import { bool, duration, hosts, oneOf, strOpt, uuid, type AllowedHosts } from './parsers.js';
import { ATTEMPT_TIMEOUT_MS, DEFAULT_API_KEY, DEFAULT_API_SECRET, spec, type Verify } from './spec.js';

export const ACCESS_OPTIONS = [
  spec({
    key: 'allowedHosts',
    flag: '--allowed-hosts <hosts>',
    env: 'CARD_SANDBOX_ALLOWED_HOSTS',
    default: [] as AllowedHosts,
    parse: hosts,
    defaultText: 'none',
    doc: 'Host names to answer besides localhost, *.localhost and loopback addresses (and, bound to another address, IP addresses and single-label names): `ci.example.test,.svc.local`, or `all` (docs/reliability.md: Reliability and security)',
  }),
  spec({
    key: 'verify',
    flag: '--verify <mode>',
    env: 'CARD_SANDBOX_VERIFY',
    default: 'warn' as Verify,
    parse: oneOf(['strict', 'warn', 'off'] as const),
    doc: 'Request signature, digest and idempotency-key checks: `strict` refuses, `warn` reports, `off` skips',
  }),
  spec({
    key: 'apiKey',
    flag: '--api-key <uuid>',
    env: 'CARD_SANDBOX_API_KEY',
    default: undefined,
    parse: uuid,
    defaultText: DEFAULT_API_KEY,
    doc: 'API key accepted by POST /v1/auth/token',
  }),
  spec({
    key: 'apiSecret',
    flag: '--api-secret <secret>',
    env: 'CARD_SANDBOX_API_SECRET',
    default: undefined,
    parse: strOpt,
    defaultText: DEFAULT_API_SECRET,
    doc: 'API secret for that key',
  }),
  spec({
    key: 'signingKey',
    flag: '--signing-key <file>',
    env: 'CARD_SANDBOX_SIGNING_KEY',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'PEM file of a P-384 public key to register for request signatures at start',
  }),
  spec({
    key: 'signingKeyId',
    flag: '--signing-key-id <uuid>',
    env: 'CARD_SANDBOX_SIGNING_KEY_ID',
    default: undefined,
    parse: uuid,
    defaultText: 'derived from the key',
    doc: 'keyid under which --signing-key is registered',
  }),
  spec({
    key: 'tokenTtlMs',
    flag: '--token-ttl <duration>',
    env: 'CARD_SANDBOX_TOKEN_TTL',
    default: 3_600_000,
    defaultText: '1h',
    doc: 'Lifetime of access tokens in sandbox time (`1h`, `PT30M`)',
    // A token expires on the sandbox clock: a lifetime past its range of time would make an expiry no date holds.
    parse: duration(1000, MAX_ADVANCE_MS, 'at least 1s and at most 100 years'),
  }),
  spec({
    key: 'webhookKey',
    flag: '--webhook-key <file>',
    env: 'CARD_SANDBOX_WEBHOOK_KEY',
    default: undefined,
    parse: strOpt,
    defaultText: 'made on first start',
    doc: 'PEM file of the P-384 private key that signs webhooks',
  }),
  spec({
    key: 'adminToken',
    flag: '--admin-token <token>',
    env: 'CARD_SANDBOX_ADMIN_TOKEN',
    default: undefined,
    parse: strOpt,
    defaultText: 'none',
    doc: 'Require `Authorization: Bearer <token>` on /_sandbox/*',
  }),
  spec({
    key: 'allowLinkLocalCallbacks',
    flag: '--allow-link-local-callbacks',
    env: 'CARD_SANDBOX_ALLOW_LINK_LOCAL_CALLBACKS',
    default: false,
    parse: bool,
    doc: 'Deliver webhooks to link-local addresses too (169.254.0.0/16, fe80::/10, where cloud metadata services answer), refused otherwise (docs/reliability.md: Open to a network)',
  }),
  spec({
    key: 'webhookTimeoutMs',
    flag: '--webhook-timeout <duration>',
    env: 'CARD_SANDBOX_WEBHOOK_TIMEOUT',
    default: ATTEMPT_TIMEOUT_MS,
    defaultText: '10s',
    doc: 'How long a receiver has to answer a webhook attempt in full, in real time, before the attempt fails (`30s`, `2m`)',
    parse: duration(1000, 3_600_000, 'at least 1s and at most 1h'),
  }),
] as const;
