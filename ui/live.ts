/**
 * The page's live view of one programme (docs/inspector.md: The inspector): its events, newest first, with
 * their deliveries' states; its request journal; its health and clock; and a counter that moves
 * whenever its world changes. The streams are opened first and the lists loaded once they are, so
 * that nothing in between is missed; then every stream message updates the lists in place, a burst
 * at a time. After a drop it reconnects and reloads what it missed; after a reset, everything. An
 * answer that comes back after its connection was replaced (another programme shown, a reset, a
 * reconnection) changes nothing.
 */
import type { SseMessage } from '../src/kernel/sse.js';
import { adminToken, control, unauthorised } from './api.js';
import type { AttemptMessage, Clock, Event, EventMessage, Health, JournalEntry, ProgrammeSummary } from './api-types.js';
import { withAttempts } from './deliveries.js';
import { signal } from './state.js';

/** The most events one page of GET /_sandbox/events holds. */
const EVENTS_PAGE = 1000;
/** How many journal entries the page keeps (the sandbox keeps --journal-size). */
const JOURNAL_KEPT = 10_000;
const POLL_MS = 5_000;

export const events = signal<Event[]>([]);
/** Whether older events than those loaded may exist. */
export const olderEvents = signal(false);
export const journal = signal<JournalEntry[]>([]);
/** Moves on every event: views that show the world read it again. */
export const worldChanged = signal(0);
/** The events the latest batch of delivery attempts was for: the event on screen reads its attempts again. */
export const attempted = signal<ReadonlySet<string>>(new Set());
export const link = signal<'connecting' | 'live' | 'down'>('connecting');
export const health = signal<Health | undefined>(undefined);
export const clock = signal<Clock | undefined>(undefined);
export const programmes = signal<ProgrammeSummary[]>([]);

/** The programme shown, and what stops following it. */
let running: { programme: string; stop: AbortController } | undefined;

/** Shows `programme` from now on: everything is loaded again for it. */
export function connect(programme: string): void {
  running?.stop.abort();
  const stop = new AbortController();
  running = { programme, stop };
  events.set([]);
  journal.set([]);
  olderEvents.set(false);
  health.set(undefined);
  clock.set(undefined);
  void followLive(programme, stop.signal);
  void poll(programme, stop.signal);
}

/** Asks for the health and the clock now (after an action), and every few seconds anyway. */
export async function refreshStatus(programme: string): Promise<void> {
  const [h, c] = await Promise.all([control.getHealth({ programme }), control.getClock({ programme })]);
  if (programme !== running?.programme) return;
  health.set(h);
  clock.set(c);
}

export async function refreshProgrammes(): Promise<void> {
  programmes.set(await control.listProgrammes());
}

async function poll(programme: string, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    await refreshStatus(programme).catch(() => undefined);
    await sleep(POLL_MS, stop);
  }
}

const sleep = (ms: number, stop: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    stop.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Waits for a new admin token after the control plane asked for one. */
const tokenGiven = (stop: AbortSignal) =>
  new Promise<void>((resolve) => {
    const off = adminToken.subscribe(() => (off(), resolve()));
    stop.addEventListener('abort', () => (off(), resolve()), { once: true });
  });

/** Both streams, reconnecting after a drop, and reading everything again after a reset, until `stop`. */
async function followLive(programme: string, stop: AbortSignal): Promise<void> {
  let delay = 500;
  while (!stop.aborted) {
    const attempt = new AbortController();
    const hangUp = () => attempt.abort();
    stop.addEventListener('abort', hangUp, { once: true });
    let cleared = false;
    const updates = createUpdates(programme, attempt.signal, () => {
      cleared = true;
      attempt.abort();
    });
    let opened = 0;
    const onOpen = () => {
      if (++opened < 2) return;
      void updates.load().then(
        () => {
          if (attempt.signal.aborted) return;
          link.set('live');
          delay = 500;
        },
        () => attempt.abort(),
      );
    };
    const following = { programme, onMessage: updates.receive, signal: attempt.signal, onOpen };
    let refused: unknown;
    await Promise.race([control.follow('streamEvents', undefined, following), control.follow('streamRequests', following)]).catch(
      (error: unknown) => (refused = error),
    );
    attempt.abort();
    stop.removeEventListener('abort', hangUp);
    if (stop.aborted) return;
    if (cleared) continue;
    link.set('down');
    if (unauthorised(refused)) await tokenGiven(stop);
    else await sleep(delay, stop);
    delay = Math.min(delay * 2, 5_000);
  }
}

/** One connection's updates: messages wait until the lists are loaded, then are applied a burst at a time, until `over`. */
function createUpdates(programme: string, over: AbortSignal, onCleared: () => void) {
  let loaded = false;
  let scheduled = false;
  const queue: SseMessage[] = [];
  /** How many of the newest events to read again for their deliveries. */
  let unsynced = 0;
  let syncing = false;

  const flush = () => {
    scheduled = false;
    if (over.aborted) return;
    const known = new Set(events.value.map((e) => e.id));
    const logged = new Set(journal.value.map((r) => r.requestId));
    const fresh: Event[] = [];
    const requests: JournalEntry[] = [];
    const attempts: AttemptMessage[] = [];
    for (const message of queue.splice(0)) {
      if (message.event === 'event') {
        const e = JSON.parse(message.data) as EventMessage;
        if (known.has(e.id)) continue;
        known.add(e.id);
        fresh.push({ id: e.id, type: e.type, entityId: e.entityId, createdAt: e.createdAt, body: e.body, deliveries: [] });
      } else if (message.event === 'request') {
        const entry = JSON.parse(message.data) as JournalEntry;
        if (!logged.has(entry.requestId)) requests.push(entry);
      } else if (message.event === 'attempt') attempts.push(JSON.parse(message.data) as AttemptMessage);
    }
    const { list, missing } = withAttempts(fresh.length ? [...fresh.reverse(), ...events.value] : events.value, attempts);
    events.set(list);
    unsynced = Math.max(unsynced + fresh.length, missing);
    if (fresh.length) worldChanged.update((n) => n + 1);
    if (requests.length) journal.update((entries) => [...requests.reverse(), ...entries].slice(0, JOURNAL_KEPT));
    if (attempts.length) attempted.set(new Set(attempts.map((a) => a.eventId)));
    // A failed read is made good by the next reconnection, which reads everything again.
    if (unsynced) void sync().catch(() => undefined);
  };

  /** Events that came over the stream have no deliveries yet: read the newest ones again. */
  const sync = async () => {
    if (syncing) return;
    syncing = true;
    try {
      while (unsynced > 0) {
        const limit = Math.min(unsynced, EVENTS_PAGE);
        unsynced = 0;
        const newest = await control.listEvents({ limit }, { programme });
        if (over.aborted) return;
        const byId = new Map(newest.map((e) => [e.id, e]));
        events.update((list) => list.map((e) => byId.get(e.id) ?? e));
      }
    } finally {
      syncing = false;
    }
  };

  return {
    receive(message: SseMessage) {
      if (message.event === 'cleared') return onCleared();
      queue.push(message);
      if (!loaded || scheduled) return;
      scheduled = true;
      setTimeout(flush, 16);
    },

    /** The first page of events and the journal; what the streams sent meanwhile is either in them or newer. */
    async load() {
      const [page, entries] = await Promise.all([control.listEvents({ limit: EVENTS_PAGE }, { programme }), control.listRequests({ programme })]);
      if (over.aborted) return;
      events.set(page);
      olderEvents.set(page.length === EVENTS_PAGE);
      journal.set(entries);
      loaded = true;
      flush();
      worldChanged.update((n) => n + 1);
    },
  };
}

/** The next page of older events. */
export async function loadOlderEvents(programme: string): Promise<void> {
  const last = events.value.at(-1);
  if (!last) return;
  const page = await control.listEvents({ limit: EVENTS_PAGE, before: last.id }, { programme });
  if (programme !== running?.programme) return;
  const known = new Set(events.value.map((e) => e.id));
  events.update((list) => [...list, ...page.filter((e) => !known.has(e.id))]);
  olderEvents.set(page.length === EVENTS_PAGE);
}
