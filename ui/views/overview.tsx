/**
 * Overview (docs/inspector.md: The inspector): the clock and time travel (advance 1 h / 1 d / 30 d / to…), the
 * health of the sandbox, how many of everything the programme holds, and what needs looking at —
 * the last refused request and the last delivery that failed.
 */
import { useEffect, useState } from 'preact/hooks';
import { control } from '../api.js';
import { Badge, Empty, Facts, Failure, Panel } from '../components.js';
import { eventState, failing } from '../deliveries.js';
import { instantFrom, plural, shortId, when, withoutBase } from '../format.js';
import { clock, events, health, journal, link, refreshStatus, worldChanged } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { href } from '../route.js';
import { useSignal } from '../state.js';

const STEPS = [
  ['+1 hour', '1h'],
  ['+1 day', '1d'],
  ['+30 days', '30d'],
] as const;

/** The sandbox clock; a running one ticks on screen between reads. */
function Now() {
  const c = useSignal(clock);
  const [, tick] = useState(0);
  const [read, setRead] = useState(() => performance.now());
  useEffect(() => setRead(performance.now()), [c]);
  useEffect(() => {
    if (!c || c.frozen) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [c]);
  if (!c) return <span class="now">…</span>;
  const now = c.frozen ? c.now : new Date(Date.parse(c.now) + (performance.now() - read)).toISOString();
  return (
    <span class="now" data-now={c.now}>
      {when(now)} <small>UTC</small>
    </span>
  );
}

function ClockPanel({ programme }: { programme: string }) {
  const c = useSignal(clock);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [to, setTo] = useState('');

  const advance = async (body: { by: string } | { to: string }) => {
    setBusy(true);
    setError(undefined);
    setOutcome(undefined);
    try {
      const { now, ran } = await control.advanceClock(body, { programme });
      setOutcome(`Now ${when(now)} UTC; ${plural(ran, 'job')} ran on the way.`);
      await refreshStatus(programme);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const submitTo = (e: SubmitEvent) => {
    e.preventDefault();
    const instant = instantFrom(to);
    if (!instant) return setError(new Error(`"${to}" is not a date (2029-06-01) or an ISO 8601 instant (2029-06-01T12:00:00Z)`));
    void advance({ to: instant });
  };

  return (
    <Panel title="Clock" class="clock">
      <p class="big">
        <Now /> {c && <Badge state={c.frozen ? 'frozen' : 'running'} tone={c.frozen ? 'info' : 'ok'} />}
      </p>
      <div class="row">
        {STEPS.map(([label, by]) => (
          <button type="button" key={by} disabled={busy} onClick={() => void advance({ by })}>
            {label}
          </button>
        ))}
      </div>
      <form class="row" onSubmit={submitTo}>
        <label for="advance-to">Advance to</label>
        <input id="advance-to" value={to} onInput={(e) => setTo(e.currentTarget.value)} placeholder="2029-06-01 or 2029-06-01T12:00:00Z" autocomplete="off" />
        <button type="submit" disabled={busy || to.trim() === ''}>
          Go
        </button>
      </form>
      <p class="hint" aria-live="polite">
        {busy ? 'Advancing: every job and webhook retry that falls due runs on the way…' : outcome}
      </p>
      <Failure error={error} />
    </Panel>
  );
}

function Counts({ programme }: { programme: string }) {
  const changed = useSettled(useSignal(worldChanged), 250);
  const requests = useSignal(journal);
  const counts = useLoad(() => control.getWorldCounts({ programme }), [programme, changed]);
  const n = counts.data;
  const refused = requests.filter((r) => r.status >= 400).length;
  const cell = (label: string, value: number | undefined, link: string) => (
    <a class="count" href={link} key={label}>
      <strong>{value === undefined ? '…' : value.toLocaleString('en')}</strong>
      <span>{label}</span>
    </a>
  );
  return (
    <Panel title="Counts" class="counts">
      <Failure error={counts.error} />
      <div class="count-grid">
        {cell('customers', n?.customers, href('world'))}
        {cell('accounts', n?.accounts, href('world'))}
        {cell('cards', n?.cards, href('world'))}
        {cell('authorisations', n?.authorisations, href('world'))}
        {cell('transactions', n?.transactions, href('world'))}
        {cell('webhooks', n?.webhooks, href('world'))}
        {cell('events', n?.events, href('events'))}
        {cell('delivered', n?.deliveries.delivered, href('events'))}
        {cell('pending', n?.deliveries.pending, href('events'))}
        {cell('failed', n?.deliveries.discarded, href('events', undefined, { failing: '1' }))}
        {cell('requests', requests.length, href('requests'))}
        {cell('refused', refused, href('requests', undefined, { failed: '1' }))}
      </div>
      {n && n.customers === 0 && (
        <p class="hint">
          No customers yet: create one through the API (<code>POST /v1/customers</code>), or load a seed world with{' '}
          <code>card-sandbox seed fixtures/demo.json</code>.
        </p>
      )}
    </Panel>
  );
}

function Attention() {
  const requests = useSignal(journal);
  const list = useSignal(events);
  const refused = requests.find((r) => r.status >= 400);
  const broken = list.find((e) => e.deliveries.some(failing));
  return (
    <Panel title="Needs attention" class="attention">
      {!refused && !broken && <Empty>Nothing failing: no refused request, no failed delivery.</Empty>}
      {refused && (
        <a class="callout" href={href('requests', refused.requestId)}>
          <span class="label">Last refused request</span>
          <span>
            <code>
              {refused.method} {refused.path}
            </code>{' '}
            <Badge state={String(refused.status)} tone="bad" /> {refused.problem && <code>{refused.problem.code}</code>}
          </span>
          {refused.problem && <span class="detail">{withoutBase(refused.problem.detail).split('\n')[0]}</span>}
        </a>
      )}
      {broken && (
        <a class="callout" href={href('events', broken.id)}>
          <span class="label">Last failing webhook delivery</span>
          <span>
            <code>{broken.type}</code> {shortId(broken.entityId)} <Badge state={eventState(broken.deliveries)} />
          </span>
          <span class="detail">
            {broken.deliveries
              .filter(failing)
              .map((d) => `${d.callbackUrl}: ${plural(d.attempts, 'attempt')}`)
              .join('; ')}
          </span>
        </a>
      )}
    </Panel>
  );
}

function HealthPanel() {
  const h = useSignal(health);
  const state = useSignal(link);
  return (
    <Panel title="Health" class="health">
      {h ? (
        <Facts
          rows={[
            ['status', <Badge state={h.status} />],
            ['version', h.version],
            ['environment', h.env],
            ['verification', h.verify],
            ['live updates', <Badge state={state === 'live' ? 'connected' : state} tone={state === 'live' ? 'ok' : state === 'down' ? 'bad' : 'wait'} />],
          ]}
        />
      ) : (
        <Empty>Asking the sandbox…</Empty>
      )}
    </Panel>
  );
}

export function Overview({ programme }: { programme: string }) {
  return (
    <div class="overview">
      <ClockPanel programme={programme} />
      <Attention />
      <Counts programme={programme} />
      <HealthPanel />
    </div>
  );
}
