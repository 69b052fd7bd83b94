/**
 * The money path's panels of the Simulator view (docs/money-path.md: The money path): capture part
 * of a hold (a part or the last), refund on a card, reverse a debit, block, suspend or reinstate a
 * card, fail an account not yet deployed, and the programme's fees and exchange rates. Each form offers the resources in a state it
 * applies to, and takes any id pasted in.
 */
import { useState } from 'preact/hooks';
import { control } from '../api.js';
import { canBlock, canFailAccount, canRefund, canReinstate, canReverse, canSettle, canSuspend, DONE, OutcomeLine, simulate } from '../actions.js';
import type { Fees, Rates } from '../api-types.js';
import { Panel } from '../components.js';
import { Field, Pick, useRun } from '../forms.js';
import { worldChanged } from '../live.js';
import { useLoad } from '../load.js';
import { useSignal } from '../state.js';
import type { Kind, TreeRow } from '../tree.js';

const FEE_TYPES = ['partner', 'service', 'network'] as const;

function PartialCapture({ holds, initial }: { holds: TreeRow[]; initial?: string | undefined }) {
  const [id, setId] = useState(initial ?? '');
  const [amount, setAmount] = useState('');
  const [final, setFinal] = useState(true);
  const { outcome, busy, run } = useRun();
  const submit = (e: SubmitEvent) => (
    e.preventDefault(),
    void run(() => simulate.capture(id, amount.trim() || undefined, final), final ? DONE.capture : DONE.capturePart)
  );
  return (
    <Panel title="Capture part of a hold">
      <form class="form" onSubmit={submit}>
        <Pick id="partial-capture" label="Pending authorisation" rows={holds} value={id} onInput={setId} />
        <Field label="Amount (its currency; empty for all)" value={amount} onInput={setAmount} />
        <label class="check">
          <input type="checkbox" checked={final} onChange={(e) => setFinal(e.currentTarget.checked)} /> final: the last capture, the rest released (otherwise
          the rest stays held for another)
        </label>
        <div class="row">
          <button type="submit" class="primary" disabled={busy || !id}>
            Capture
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

function Refund({ cards, debits, initial }: { cards: TreeRow[]; debits: TreeRow[]; initial?: string | undefined }) {
  const [cardId, setCardId] = useState(initial ?? '');
  const [amount, setAmount] = useState('5');
  const [currency, setCurrency] = useState('EUR');
  const [transactionId, setTransactionId] = useState('');
  const { outcome, busy, run } = useRun();
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    void run(
      () => simulate.refund(cardId, { amount, currency, ...(transactionId && { transactionId }) }),
      (answer) => {
        const t = answer as { id: string; amount: string; currency: string };
        return `Refund ${t.id}: a credit of ${t.amount} ${t.currency}, processing; processed 1 s of sandbox time later.`;
      },
    );
  };
  return (
    <Panel title="Refund">
      <form class="form" onSubmit={submit}>
        <Pick id="refund-card" label="Card" rows={cards} value={cardId} onInput={setCardId} />
        <div class="row">
          <Field label="Amount" value={amount} onInput={setAmount} small />
          <Field label="Currency" value={currency} onInput={(v) => setCurrency(v.toUpperCase())} small />
        </div>
        <Pick
          id="refund-transaction"
          label="Debit it gives back (optional)"
          rows={debits.filter((d) => d.parent === cardId)}
          value={transactionId}
          onInput={setTransactionId}
        />
        <div class="row">
          <button type="submit" class="primary" disabled={busy || !cardId}>
            Refund
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

function CardStatus({ cards }: { cards: TreeRow[] }) {
  const [id, setId] = useState('');
  const { outcome, busy, run } = useRun();
  const moves = [
    ['Suspend', simulate.suspend, DONE.suspend, ''],
    ['Block', simulate.block, DONE.block, 'danger'],
    ['Reinstate', simulate.reinstate, DONE.reinstate, 'primary'],
  ] as const;
  return (
    <Panel title="Card blocked or suspended by the issuer">
      <form class="form" onSubmit={(e) => e.preventDefault()}>
        <Pick id="card-status" label="Card" rows={cards} value={id} onInput={setId} />
        <div class="row">
          {moves.map(([label, move, done, kind]) => (
            <button key={label} type="button" class={kind} disabled={busy || !id} onClick={() => void run(() => move(id), done)}>
              {label}
            </button>
          ))}
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

function OneMove({
  title,
  pick,
  rows,
  label,
  move,
  done,
}: {
  title: string;
  pick: string;
  rows: TreeRow[];
  label: string;
  move: (id: string) => Promise<unknown>;
  done: string;
}) {
  const [id, setId] = useState('');
  const { outcome, busy, run } = useRun();
  const field = title.toLowerCase().replace(/\W+/g, '-');
  return (
    <Panel title={title}>
      <form class="form" onSubmit={(e) => (e.preventDefault(), void run(() => move(id), done))}>
        <Pick id={field} label={pick} rows={rows} value={id} onInput={setId} />
        <div class="row">
          <button type="submit" class="danger" disabled={busy || !id}>
            {label}
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

function FeesPanel({ programme }: { programme: string }) {
  const changed = useSignal(worldChanged);
  const [saved, setSaved] = useState(0);
  const current = useLoad(() => control.getFees({ programme }), [programme, saved, changed]);
  const [fees, setFees] = useState<Fees | undefined>();
  const shown = fees ?? current.data ?? {};
  const { outcome, busy, run } = useRun();
  const save = (next: Fees) =>
    void run(
      async () => {
        const answer = await control.setFees(next, { programme });
        setFees(undefined);
        setSaved((n) => n + 1);
        return answer;
      },
      (answer) => {
        const set = Object.entries(answer as Fees).map(([type, fee]) => `${type} ${fee}`);
        return set.length ? `Every transaction made from now on carries: ${set.join(', ')}.` : 'No fees: new transactions carry fees: [].';
      },
    );
  return (
    <Panel title="Fees">
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          save(Object.fromEntries(FEE_TYPES.flatMap((t) => (shown[t]?.trim() ? [[t, shown[t]!.trim()]] : []))));
        }}
      >
        <div class="row">
          {FEE_TYPES.map((type) => (
            <Field key={type} label={type} value={shown[type] ?? ''} onInput={(v) => setFees({ ...shown, [type]: v })} small placeholder="0.5% or 0.10" />
          ))}
        </div>
        <div class="row">
          <button type="submit" class="primary" disabled={busy}>
            Save fees
          </button>
          <button type="button" disabled={busy} onClick={() => save({})}>
            No fees
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

/** The programme's exchange rates (docs/money-path.md: Moving rates): those moved from the shipped table, one more moved, or all back. */
function RatesPanel({ programme }: { programme: string }) {
  const changed = useSignal(worldChanged);
  const [saved, setSaved] = useState(0);
  const current = useLoad(() => control.getRates({ programme }), [programme, saved, changed]);
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState('');
  const { outcome, busy, run } = useRun();
  const moved = current.data?.moved ?? {};
  const save = (next: Record<string, string>) =>
    void run(
      async () => {
        const answer = await control.setRates(next, { programme });
        setSaved((n) => n + 1);
        return answer;
      },
      (answer) => {
        const set = Object.entries((answer as Rates).moved).map(([c, r]) => `${c} ${r}`);
        return set.length ? `Conversions from now on use ${set.join(', ')} per USD.` : 'Back to the shipped table.';
      },
    );
  return (
    <Panel title="Exchange rates">
      <p class="dim" data-rates="moved">
        {Object.keys(moved).length
          ? `Moved from the table: ${Object.entries(moved)
              .map(([c, r]) => `${c} ${r}`)
              .join(', ')} per USD.`
          : 'The shipped table, unmoved.'}
      </p>
      <form class="form" onSubmit={(e) => (e.preventDefault(), save({ ...moved, [currency.trim()]: rate.trim() }))}>
        <div class="row">
          <Field label="Currency" value={currency} onInput={(v) => setCurrency(v.toUpperCase())} small placeholder="EUR" />
          <Field label="Units per USD" value={rate} onInput={setRate} small placeholder={current.data?.rates[currency] ?? '0.95'} />
        </div>
        <div class="row">
          <button type="submit" class="primary" disabled={busy || !currency.trim()}>
            Move rate
          </button>
          <button type="button" disabled={busy} onClick={() => save({})}>
            Back to the table
          </button>
        </div>
      </form>
      <OutcomeLine outcome={outcome} />
    </Panel>
  );
}

export function MoneyPanels({ rows, query, programme }: { rows: TreeRow[]; query: Record<string, string>; programme: string }) {
  const of = (kind: Kind, allowed: (status: string) => boolean) => rows.filter((r) => r.kind === kind && allowed(r.status ?? ''));
  const stoppable = of('card', (s) => canBlock(s) || canSuspend(s) || canReinstate(s));
  return (
    <>
      <PartialCapture holds={of('authorisation', canSettle)} initial={query.authorisation} />
      <Refund cards={of('card', canRefund)} debits={rows.filter((r) => r.kind === 'transaction' && r.json.direction === 'debit')} initial={query.refund} />
      <OneMove
        title="Reverse a debit"
        pick="Processed debit"
        rows={rows.filter((r) => r.kind === 'transaction' && canReverse(r))}
        label="Reverse"
        move={simulate.reverse}
        done={DONE.reverse}
      />
      <CardStatus cards={stoppable} />
      <OneMove
        title="Account deployment fails"
        pick="Account initiating or pending"
        rows={of('account', canFailAccount)}
        label="Fail account"
        move={simulate.failAccount}
        done={DONE.failAccount}
      />
      <FeesPanel programme={programme} />
      <RatesPanel programme={programme} />
    </>
  );
}
