/**
 * The pieces of the inspector's forms (docs/inspector.md: The inspector): a resource id picked from
 * those an action applies to, a text field, and one control call run with what it came to kept.
 */
import { useState } from 'preact/hooks';
import type { Outcome } from './actions.js';
import type { TreeRow } from './tree.js';

/** A resource id: typed, pasted, or picked from those in a state the action applies to. */
export function Pick({ id, label, rows, value, onInput }: { id: string; label: string; rows: TreeRow[]; value: string; onInput: (value: string) => void }) {
  return (
    <label class="field">
      <span>{label}</span>
      <input
        id={id}
        list={`${id}-options`}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value.trim())}
        placeholder={rows.length ? 'pick or paste an id' : 'paste an id'}
        autocomplete="off"
        class="mono"
      />
      <datalist id={`${id}-options`}>
        {rows.map((r) => (
          <option key={r.id} value={r.id} label={`${r.label} (${r.status})`} />
        ))}
      </datalist>
    </label>
  );
}

/** A labelled text field; `small` for a short value (an amount, a currency). */
export function Field({
  label,
  value,
  onInput,
  small,
  placeholder,
}: {
  label: string;
  value: string;
  onInput: (v: string) => void;
  small?: boolean;
  placeholder?: string;
}) {
  return (
    <label class={`field${small ? ' small' : ''}`}>
      <span>{label}</span>
      <input value={value} onInput={(e) => onInput(e.currentTarget.value)} class="mono" placeholder={placeholder} />
    </label>
  );
}

/** Runs one simulator call and keeps what it came to. */
export function useRun() {
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string | ((answer: unknown) => string)) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const answer = await action();
      setOutcome({ done: typeof done === 'string' ? done : done(answer) });
    } catch (error) {
      setOutcome({ error });
    } finally {
      setBusy(false);
    }
  };
  return { outcome, busy, run };
}
