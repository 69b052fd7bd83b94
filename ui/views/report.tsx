/**
 * Readiness (docs/go-live.md: Before you go live): the go-live report of the programme in view — each check
 * with its verdict, what was found, what could not be judged, its evidence and how to fix it, then the operations never called, the states
 * never reached with what reaches each, and what the receiver answered — read again as requests and deliveries come in.
 */
import type { ComponentChildren } from 'preact';
import { control } from '../api.js';
import { Badge, Empty, Facts, Panel } from '../components.js';
import { journal, worldChanged } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { useSignal } from '../state.js';

const TONE = { pass: 'ok', fail: 'bad', 'not judged': 'wait', 'not exercised': 'off' } as const;
const STATE = { pass: 'delivered', fail: 'failed', 'not judged': 'pending', 'not exercised': 'none' } as const;

export function ReportView({ programme }: { programme: string }) {
  const requests = useSettled(useSignal(journal), 500);
  const changed = useSettled(useSignal(worldChanged), 500);
  const report = useLoad(() => control.getReport({}, { programme }), [programme, requests, changed]);
  const r = report.data;
  if (!r) return <Empty>{report.error ? `The report could not be read: ${String(report.error)}` : 'Reading the report…'}</Empty>;
  const { operations, neverCalled, states, webhooks } = r.coverage;
  return (
    <div class="readiness">
      <Panel
        title="Before you go live"
        actions={
          <span class="dim">{`${r.summary.pass} pass · ${r.summary.fail} fail · ${r.summary['not judged']} not judged · ${r.summary['not exercised']} not exercised`}</span>
        }
      >
        <ul class="checks">
          {r.checks.map((c) => (
            <li key={c.id} class={`check state-${STATE[c.status]}`}>
              <Badge state={c.status} tone={TONE[c.status]} /> <strong>{c.title}</strong> <span class="mono dim">{c.id}</span>
              {c.status !== 'not exercised' && <div class="finding">{c.finding}</div>}
              {c.notJudged?.map((n) => (
                <div class="hint" key={n.what}>
                  {`Not judged: ${n.what} — ${n.why}`}
                </div>
              ))}
              {c.hint && c.status !== 'pass' && <div class="hint">{c.hint}</div>}
              {c.status === 'fail' && <pre class="mono evidence">{JSON.stringify(c.evidence, null, 2)}</pre>}
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title="Coverage">
        <Facts
          rows={[
            ['operations called', `${operations.length - neverCalled.length} of ${operations.length}`],
            ['never called', neverCalled.length ? <span class="mono">{neverCalled.join(', ')}</span> : 'none'],
            ...states.map((s): [string, ComponentChildren] => [
              `${s.resource} states`,
              <>
                {`${s.reached.join(', ') || 'none'}${s.never.length ? ` — never ${s.never.join(', ')}` : ''}`}
                {s.never.length > 0 && (
                  <ul class="hint reach">
                    {s.never.map((status) => (
                      <li key={status}>
                        <code>{status}</code>: {s.hints[status]}
                      </li>
                    ))}
                  </ul>
                )}
              </>,
            ]),
            ...webhooks.map((w): [string, string] => [
              w.type,
              `${w.attempts} attempts, answered ${Object.entries(w.answers)
                .map(([k, v]) => `${k}×${v}`)
                .join(', ')}`,
            ]),
          ]}
        />
      </Panel>
    </div>
  );
}
