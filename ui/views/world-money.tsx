/**
 * The money of the resource the World view shows (docs/inspector.md: The inspector — World;
 * docs/money-path.md): an account's balance, what its pending authorisations hold and what is
 * available, with a form to set the balance; a pending authorisation's amount update and its
 * captures, each a part (`final: false`) or the last; a debit with no authorisation (force post)
 * on a card that takes payments.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { control } from '../api.js';
import { canSettle, DONE, OutcomeLine, simulate } from '../actions.js';
import type { Authorisation, Funds, Transaction } from '../api-types.js';
import { Failure, Facts } from '../components.js';
import { Field, useRun } from '../forms.js';
import { health, worldChanged } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { useSignal } from '../state.js';
import type { TreeRow } from '../tree.js';

/** One form of the detail pane: its fields, one submit button, and what its run came to. */
function MoneyForm({
  title,
  form: { busy, outcome },
  submit,
  label,
  children,
}: {
  title: string;
  form: ReturnType<typeof useRun>;
  submit: () => void;
  label: string;
  children: ComponentChildren;
}) {
  return (
    <form class="form money-form" aria-label={title} onSubmit={(e) => (e.preventDefault(), submit())}>
      <h3>{title}</h3>
      <div class="row">
        {children}
        <button type="submit" class="primary" disabled={busy}>
          {label}
        </button>
      </div>
      <OutcomeLine outcome={outcome} />
    </form>
  );
}

function AccountFunds({ accountId, currency, programme }: { accountId: string; currency: string; programme: string }) {
  const changed = useSettled(useSignal(worldChanged), 150);
  const funds = useLoad(() => control.getBalance(accountId, { programme }), [accountId, programme, changed]);
  const [amount, setAmount] = useState('');
  const form = useRun();
  const set = () =>
    void form.run(
      async () => {
        const answer = await simulate.setBalance(accountId, amount.trim());
        funds.reload();
        return answer;
      },
      (answer) => {
        const f = answer as Funds;
        return `The balance is ${f.balance} ${currency}: ${f.held} held, ${f.available} available.`;
      },
    );
  return (
    <div class="funds">
      <h3>Funds</h3>
      <Failure error={funds.error} />
      {funds.data && (
        <Facts
          rows={[
            ['balance', <span class="mono" data-funds="balance">{`${funds.data.balance} ${currency}`}</span>],
            ['held', <span class="mono" data-funds="held">{`${funds.data.held} ${currency}`}</span>],
            ['available', <span class="mono" data-funds="available">{`${funds.data.available} ${currency}`}</span>],
          ]}
        />
      )}
      <MoneyForm title="Set the balance" label="Set balance" submit={set} form={form}>
        <Field label={`Balance (${currency})`} value={amount} onInput={setAmount} small placeholder="100" />
      </MoneyForm>
    </div>
  );
}

function HoldForms({ hold }: { hold: Authorisation }) {
  const [amount, setAmount] = useState('');
  const [part, setPart] = useState('');
  const [final, setFinal] = useState(true);
  const update = useRun();
  const capture = useRun();
  return (
    <>
      <MoneyForm
        title="Update the amount"
        label="Update amount"
        submit={() =>
          void update.run(
            () => simulate.updateAmount(hold.id, amount.trim()),
            (answer) => `Still pending, now ${(answer as Authorisation).amount} ${hold.currency}: the hold follows, its expiry does not move.`,
          )
        }
        form={update}
      >
        <Field label={`New amount (${hold.currency})`} value={amount} onInput={setAmount} small placeholder={hold.amount} />
      </MoneyForm>
      <MoneyForm
        title="Capture"
        label={final ? 'Capture the last' : 'Capture a part'}
        submit={() => void capture.run(() => simulate.capture(hold.id, part.trim() || undefined, final), final ? DONE.capture : DONE.capturePart)}
        form={capture}
      >
        <Field label={`Amount (${hold.currency}; empty for the rest)`} value={part} onInput={setPart} small />
        <label class="check">
          <input type="checkbox" checked={final} onChange={(e) => setFinal(e.currentTarget.checked)} /> final (releases the rest)
        </label>
      </MoneyForm>
    </>
  );
}

function ForcePost({ cardId }: { cardId: string }) {
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [merchant, setMerchant] = useState('');
  const form = useRun();
  const submit = () =>
    void form.run(
      () => simulate.forcePost(cardId, { amount: amount.trim(), currency, ...(merchant.trim() && { merchant: { name: merchant.trim() } }) }),
      (answer) => {
        const t = answer as Transaction;
        return `Debit ${t.id} with no authorisation: ${t.tokenAmount} ${t.currency} taken, processing; processed 1 s of sandbox time later.`;
      },
    );
  return (
    <MoneyForm title="Force post a debit (no authorisation)" label="Force post" submit={submit} form={form}>
      <Field label="Amount" value={amount} onInput={setAmount} small placeholder="12.50" />
      <Field label="Currency" value={currency} onInput={(v) => setCurrency(v.toUpperCase())} small />
      <Field label="Merchant name (optional)" value={merchant} onInput={setMerchant} placeholder="Test Merchant" />
    </MoneyForm>
  );
}

/** The money parts for `row`, or nothing for a resource that has none. With `--env production` there is no simulator (docs/api.md: API behaviour). */
export function ResourceMoney({ row, programme }: { row: TreeRow; programme: string }) {
  if (useSignal(health)?.env === 'production') return null;
  if (row.kind === 'account') {
    const currency = (row.json.currencies as string[] | undefined)?.[0] ?? '';
    return <AccountFunds key={row.id} accountId={row.id} currency={currency} programme={programme} />;
  }
  if (row.kind === 'authorisation' && canSettle(row.status ?? '')) return <HoldForms key={row.id} hold={row.json as unknown as Authorisation} />;
  if (row.kind === 'card' && row.status === 'active') return <ForcePost key={row.id} cardId={row.id} />;
  return null;
}
