/**
 * Options of how much the sandbox keeps: requests, events, programmes and snapshots.
 */
import { int, size } from './parsers.js';
import { spec } from './spec.js';

export const LIMIT_OPTIONS = [
  spec({
    key: 'journalSize',
    flag: '--journal-size <n>',
    env: 'CARD_SANDBOX_JOURNAL_SIZE',
    default: 1000,
    parse: int(0, 1_000_000),
    doc: 'How many API requests GET /_sandbox/requests keeps, for each programme',
  }),
  spec({
    key: 'eventRetention',
    flag: '--event-retention <n>',
    env: 'CARD_SANDBOX_EVENT_RETENTION',
    default: 10_000,
    parse: int(1, 10_000_000),
    doc: 'How many events each programme keeps, with their deliveries and attempts; older ones are deleted, except those with a delivery still pending',
  }),
  spec({
    key: 'maxProgrammes',
    flag: '--max-programmes <n>',
    env: 'CARD_SANDBOX_MAX_PROGRAMMES',
    default: 1000,
    parse: int(1, 1_000_000),
    doc: 'How many programmes the sandbox holds, the default one included',
  }),
  spec({
    key: 'maxSnapshots',
    flag: '--max-snapshots <n>',
    env: 'CARD_SANDBOX_MAX_SNAPSHOTS',
    default: 100,
    parse: int(0, 1_000_000),
    doc: 'How many snapshots the sandbox keeps, over all its programmes',
  }),
  spec({
    key: 'maxSnapshotBytes',
    flag: '--max-snapshot-bytes <size>',
    env: 'CARD_SANDBOX_MAX_SNAPSHOT_BYTES',
    default: 1_073_741_824,
    parse: size,
    defaultText: '1GiB',
    doc: 'How many bytes of snapshot files the sandbox keeps, over all its programmes: `512MiB`, `2GiB` or bytes',
  }),
] as const;
