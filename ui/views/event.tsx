/**
 * One event (docs/inspector.md: The inspector — Events and deliveries): its body exactly as sent, and each
 * delivery with every attempt — when, the status or error, how long it took, the receiver's answer,
 * the fault the delivery lab injected — and the next attempt; with resend. Read again as attempts
 * for it arrive. Anchored on Svix's attempt detail.
 */
import { useEffect, useState } from 'preact/hooks';
import { control } from '../api.js';
import type { Attempt, Delivery } from '../api-types.js';
import { OutcomeLine, type Outcome } from '../actions.js';
import { Action, Badge, Empty, Facts, Failure, Json, Panel } from '../components.js';
import { deliveryState } from '../deliveries.js';
import { plural, shortId, statusTone, when } from '../format.js';
import { attempted } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { href } from '../route.js';
import { useSignal } from '../state.js';

function AttemptOutcome({ attempt }: { attempt: Attempt }) {
  if (attempt.error) return <span class="bad-text">{attempt.error}</span>;
  return <Badge state={`HTTP ${attempt.statusCode}`} tone={statusTone(attempt.statusCode)} />;
}

function Answer({ attempt }: { attempt: Attempt }) {
  const answer = attempt.response;
  if (!answer || (answer.body === undefined && answer.contentType === undefined)) return <span class="dim">—</span>;
  return (
    <details>
      <summary>{answer.contentType ?? 'answer'}</summary>
      <pre class="answer">{answer.body ?? ''}</pre>
    </details>
  );
}

function DeliveryBlock({ delivery }: { delivery: Delivery & { history: Attempt[] } }) {
  const state = deliveryState(delivery);
  return (
    <div class={`delivery ${state}`}>
      <div class="delivery-head">
        <Badge state={state} /> <code>{delivery.callbackUrl}</code> <span class="dim">{plural(delivery.attempts, 'attempt')}</span>
      </div>
      {delivery.history.length > 0 ? (
        <table class="attempts">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Outcome</th>
              <th scope="col">Duration</th>
              <th scope="col">Fault</th>
              <th scope="col">Receiver's answer</th>
            </tr>
          </thead>
          <tbody>
            {delivery.history.map((a) => (
              <tr key={a.attempt}>
                <td>{a.attempt}</td>
                <td class="mono">{when(a.at)}</td>
                <td>
                  <AttemptOutcome attempt={a} />
                </td>
                <td class="mono">{a.durationMs} ms</td>
                <td>{a.fault ? <Badge state={a.fault} tone="wait" /> : <span class="dim">—</span>}</td>
                <td>
                  <Answer attempt={a} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="hint">Not attempted yet.</p>
      )}
      <p class="hint">
        {delivery.status === 'pending' &&
          delivery.nextAttemptAt &&
          `Next attempt at ${when(delivery.nextAttemptAt)} UTC (sandbox time: advance the clock to get there sooner).`}
        {delivery.status === 'pending' && delivery.paused && ' Paused: nothing is sent until it is resumed.'}
        {delivery.status === 'discarded' && `Given up after ${plural(delivery.attempts, 'attempt')}: nothing more is sent. Resend to try again.`}
        {delivery.status === 'delivered' && 'Delivered: the receiver answered 2xx.'}
      </p>
    </div>
  );
}

export function EventDetail({ id, programme }: { id: string; programme: string }) {
  // Every batch of attempts that includes this event counts, however busy the stream; a burst is read once.
  const touched = useSignal(attempted);
  const [arrivals, setArrivals] = useState(0);
  useEffect(() => {
    if (touched.has(id)) setArrivals((n) => n + 1);
  }, [touched, id]);
  const mine = useSettled(arrivals, 100);
  const [outcome, setOutcome] = useState<Outcome>();
  const [resent, setResent] = useState(0);
  const event = useLoad(() => control.getEvent(id, { programme }), [id, programme, mine, resent]);

  const resend = async () => {
    const { deliveries } = await control.resendEvent(id, { programme });
    setOutcome({
      done: deliveries.length
        ? `Queued again for ${deliveries.map((d) => d.callbackUrl).join(', ')}.`
        : 'No webhook is subscribed to this type now: nothing to resend.',
    });
    setResent((n) => n + 1);
  };

  if (event.error && !event.data) return <Failure error={event.error} />;
  const e = event.data;
  if (!e) return <Empty>Loading…</Empty>;
  return (
    <Panel title={e.type} actions={<Action label="Resend" action={resend} onDone={(error) => error && setOutcome({ error })} />}>
      <OutcomeLine outcome={outcome} />
      <Facts
        rows={[
          ['event', <span class="mono">{e.id}</span>],
          [
            'entity',
            <a href={href('world', e.entityId)} class="mono">
              {e.entityId}
            </a>,
          ],
          ['created', `${when(e.createdAt)} UTC`],
        ]}
      />
      <h3>Deliveries</h3>
      {e.deliveries.length === 0 ? (
        <Empty>No webhook was subscribed to {e.type} when this happened.</Empty>
      ) : (
        e.deliveries.map((d) => <DeliveryBlock key={d.id} delivery={d} />)
      )}
      <Json value={e.body} label={`Body, exactly as sent (Sandbox-Event-Id ${shortId(e.id)})`} />
    </Panel>
  );
}
