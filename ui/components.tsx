/** Small pieces every view uses: state badges, deliveries at a glance, JSON, copy buttons, problems and panels. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { problemOf } from './api.js';
import type { Event } from './api-types.js';
import { eventState } from './deliveries.js';
import { pretty, toneOf, type Tone } from './format.js';

export function Badge({ state, tone, title }: { state: string; tone?: Tone; title?: string }) {
  return (
    <span class={`badge ${tone ?? toneOf(state)}`} title={title}>
      {state.replaceAll('_', ' ')}
    </span>
  );
}

/** The event's deliveries at a glance: the worst state among them. */
export function DeliveriesBadge({ event }: { event: Event }) {
  const state = eventState(event.deliveries);
  return (
    <Badge
      state={state === 'none' ? 'no webhook' : state}
      tone={toneOf(state)}
      title={event.deliveries.map((d) => `${d.callbackUrl}: ${d.status}`).join('\n') || 'no webhook was subscribed to this type'}
    />
  );
}

export function Copy({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(text).then(
      () => {
        setDone(true);
        setTimeout(() => setDone(false), 1200);
      },
      () => undefined,
    );
  return (
    <button type="button" class="quiet small" onClick={copy} aria-label={`${label}: ${text.slice(0, 60)}`}>
      {done ? 'Copied' : label}
    </button>
  );
}

/** A value as indented JSON. */
export function Json({ value, label }: { value: unknown; label: string }) {
  return <CodeBlock label={label} text={pretty(value)} />;
}

/** A labelled block of text with a copy button; `missing` stands in for absent text. */
export function CodeBlock({ label, text, preClass, missing }: { label: string; text: string | undefined; preClass?: string; missing?: string }) {
  return (
    <div class="code-block">
      <div class="code-head">
        <span>{label}</span>
        {text && <Copy text={text} />}
      </div>
      {text ? (
        <pre tabIndex={0} aria-label={label} class={preClass}>
          {text}
        </pre>
      ) : (
        <p class="hint">{missing}</p>
      )}
    </div>
  );
}

/** What the control plane refused with, or another failure, said plainly. */
export function Failure({ error }: { error: unknown }) {
  if (error === undefined) return null;
  const problem = problemOf(error);
  return (
    <div class="problem" role="alert">
      <strong>{problem.title}</strong>
      {problem.code && <code>{problem.code}</code>}
      {problem.detail && <div class="detail">{problem.detail}</div>}
      {problem.errors?.map((e) => (
        <div class="detail" key={e.path}>
          <code>{e.path}</code>: {e.message}
        </div>
      ))}
    </div>
  );
}

export function Panel({
  title,
  children,
  actions,
  class: extra,
}: {
  title: ComponentChildren;
  children: ComponentChildren;
  actions?: ComponentChildren;
  class?: string;
}) {
  return (
    <section class={`panel ${extra ?? ''}`}>
      <header>
        <h2>{title}</h2>
        {actions && <div class="actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** Label: value rows. */
export function Facts({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl class="facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Runs `action` on click, disabled meanwhile; the outcome goes to `onDone`. */
export function Action({
  label,
  action,
  onDone,
  kind,
  disabled,
}: {
  label: string;
  action: () => Promise<unknown>;
  onDone?: (error?: unknown) => void;
  kind?: 'primary' | 'danger';
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await action();
      onDone?.();
    } catch (error) {
      onDone?.(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class={kind ?? ''} disabled={busy || disabled} onClick={() => void run()}>
      {label}
    </button>
  );
}
