/**
 * Simulator (docs/inspector.md: The inspector): the outcomes that come from outside in a real programme —
 * the KYC verdict, card issuance, a card payment and its capture or release, and the money path's
 * (views/money.tsx) — each through the control plane's simulator routes, which run the same code as
 * /v1/simulator/*. Each form offers the resources in a state it applies to, and takes any id pasted in.
 */
import { useMemo, useState } from 'preact/hooks';
import { control } from '../api.js';
import { canIssue, canSettle, canVerify, DONE, OutcomeLine, simulate } from '../actions.js';
import { Pick, useRun } from '../forms.js';
import { MoneyPanels } from './money.js';
import { Empty, Failure, Panel } from '../components.js';
import { health, worldChanged } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { href, route } from '../route.js';
import { useSignal } from '../state.js';
import { treeRows, type Kind, type TreeRow } from '../tree.js';

const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'KWD'];

function TwoWay({
  title,
  pick,
  rows,
  yes,
  no,
  initial,
}: {
  title: string;
  pick: string;
  rows: TreeRow[];
  yes: [string, (id: string) => Promise<unknown>, string];
  no: [string, (id: string) => Promise<unknown>, string];
  initial?: string;
}) {
  const [id, setId] = useState(initial ?? '');
  const { outcome, busy, run } = useRun();
  const idFor = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <Panel title={title}>
      <form class="form" onSubmit={(e) => (e.preventDefault(), void run(() => yes[1](id), yes[2]))}>
        <Pick id={idFor} label={pick} rows={rows} value={id} onInput={setId} />
        <div class="row">
          <button type="submit" class="primary" disabled={busy || !id}>
            {yes[0]}
          </button>
          <button type="button" class="danger" disabled={busy || !id} onClick={() => void run(() => no[1](id), no[2])}>
            {no[0]}
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

function Authorise({ cards, initial }: { cards: TreeRow[]; initial?: string }) {
  const [cardId, setCardId] = useState(initial ?? '');
  const [amount, setAmount] = useState('12.50');
  const [currency, setCurrency] = useState('EUR');
  const [capture, setCapture] = useState(true);
  const [merchant, setMerchant] = useState('');
  const { outcome, busy, run } = useRun();
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void run(
      () => simulate.authorise(cardId, { amount, currency, capture, ...(merchant.trim() && { merchant: { name: merchant.trim() } }) }),
      (answer) => {
        const a = answer as { id: string; status: string; amount: string; currency: string; merchantAmount: string; merchantCurrency: string };
        return `Authorisation ${a.id}: ${a.status}, ${a.merchantAmount} ${a.merchantCurrency} = ${a.amount} ${a.currency}${capture ? ', captured 1 s of sandbox time later' : ', held until you capture or release it'}.`;
      },
    );
  };
  return (
    <Panel title="Authorise a payment">
      <form class="form" onSubmit={submit}>
        <Pick id="authorise-card" label="Active card" rows={cards} value={cardId} onInput={setCardId} />
        <div class="row">
          <label class="field small">
            <span>Amount</span>
            <input value={amount} onInput={(e) => setAmount(e.currentTarget.value)} inputMode="decimal" class="mono" />
          </label>
          <label class="field small">
            <span>Currency</span>
            <input value={currency} list="currencies" onInput={(e) => setCurrency(e.currentTarget.value.toUpperCase())} class="mono" maxLength={3} />
            <datalist id="currencies">
              {CURRENCIES.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          </label>
          <label class="field">
            <span>Merchant name (optional)</span>
            <input value={merchant} onInput={(e) => setMerchant(e.currentTarget.value)} placeholder="Test Merchant" />
          </label>
        </div>
        <label class="check">
          <input type="checkbox" checked={capture} onChange={(e) => setCapture(e.currentTarget.checked)} /> capture automatically (otherwise hold it for capture
          or release)
        </label>
        <div class="row">
          <button type="submit" class="primary" disabled={busy || !cardId}>
            Authorise
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

export function Simulator({ programme }: { programme: string }) {
  const h = useSignal(health);
  const query = useSignal(route).query;
  const changed = useSettled(useSignal(worldChanged), 250);
  const world = useLoad(() => control.getWorld({ programme }), [programme, changed]);
  const rows = useMemo(() => (world.data ? treeRows(world.data) : []), [world.data]);
  const of = (kind: Kind, allowed: (status: string) => boolean) => rows.filter((r) => r.kind === kind && allowed(r.status ?? ''));

  if (h?.env === 'production')
    return <Empty>The simulator is off: this sandbox runs with --env production, where /v1/simulator/* and its mirror answer 404.</Empty>;
  return (
    <div class="simulator">
      <p class="hint">
        What a KYC provider, a card processor or a shop would do. Each button calls <code>/_sandbox/simulator/*</code>, the same code as{' '}
        <code>/v1/simulator/*</code>; the result shows up in <a href={href('world')}>World</a> and <a href={href('events')}>Events</a> as it happens.
      </p>
      <Failure error={world.error} />
      <div class="grid">
        <TwoWay
          title="KYC verdict"
          pick="Customer waiting for KYC"
          rows={of('customer', canVerify)}
          yes={['Verify', simulate.verify, DONE.verify]}
          no={['Reject', simulate.reject, DONE.reject]}
          initial={query.customer}
        />
        <TwoWay
          title="Card issuance"
          pick="Card being issued"
          rows={of('card', canIssue)}
          yes={['Issue', simulate.issue, DONE.issue]}
          no={['Fail', simulate.fail, DONE.fail]}
        />
        <Authorise cards={of('card', (s) => s === 'active')} initial={query.card} />
        <TwoWay
          title="Capture or release"
          pick="Pending authorisation"
          rows={of('authorisation', canSettle)}
          yes={['Capture', simulate.capture, DONE.capture]}
          no={['Release', simulate.release, DONE.release]}
          initial={query.authorisation}
        />
        <MoneyPanels rows={rows} query={query} programme={programme} />
      </div>
    </div>
  );
}
