/**
 * Events and deliveries (docs/inspector.md: The inspector): a live timeline of the programme's events, newest
 * first, over the SSE stream, with each event's deliveries marked at a glance — delivered, pending,
 * retrying, paused or failed — filtered by type, entity or failure; the selected event's detail
 * beside it. Anchored on Stripe Workbench's delivery list.
 */
import { useMemo, useState } from 'preact/hooks';
import { WEBHOOK_TYPES } from '../../src/domain/outbox.js';
import type { Event } from '../api-types.js';
import { Action, Badge, DeliveriesBadge, Empty } from '../components.js';
import { eventState, failing } from '../deliveries.js';
import { plural, shortId, statusIn, when } from '../format.js';
import { events, loadOlderEvents, olderEvents } from '../live.js';
import { go, route } from '../route.js';
import { useSignal } from '../state.js';
import { VirtualList, type Column } from '../virtual-list.js';
import { EventDetail } from './event.js';

const COLUMNS: Column<Event>[] = [
  { label: 'Time (UTC)', width: '9.5rem', cell: (e) => <span class="mono">{when(e.createdAt)}</span> },
  { label: 'Type', width: 'minmax(8rem, 1fr)', cell: (e) => <code>{e.type}</code> },
  { label: 'Entity', width: '5.5rem', cell: (e) => <span class="mono dim">{shortId(e.entityId)}</span> },
  { label: 'Became', width: '6.5rem', cell: (e) => (statusIn(e.body) ? <Badge state={statusIn(e.body)!} /> : null) },
  { label: 'Deliveries', width: '6.5rem', cell: (e) => <DeliveriesBadge event={e} /> },
];

export function Events({ programme, selected }: { programme: string; selected: string | undefined }) {
  const list = useSignal(events);
  const older = useSignal(olderEvents);
  const query = useSignal(route).query;
  const [type, setType] = useState('');
  const [entity, setEntity] = useState('');
  const onlyFailing = query.failing === '1';

  const shown = useMemo(
    () => list.filter((e) => (!type || e.type === type) && (!entity || e.entityId.includes(entity.trim())) && (!onlyFailing || e.deliveries.some(failing))),
    [list, type, entity, onlyFailing],
  );
  const failingCount = useMemo(() => list.filter((e) => e.deliveries.some(failing)).length, [list]);
  const select = (e: Event | undefined) => go('events', e?.id, onlyFailing ? { failing: '1' } : {});

  return (
    <div class="split">
      <div class="pane list-pane">
        <div class="toolbar">
          <select aria-label="Event type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
            <option value="">all types</option>
            {WEBHOOK_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <input
            data-filter
            type="search"
            placeholder="Entity id  ( / )"
            aria-label="Entity id"
            value={entity}
            onInput={(e) => setEntity(e.currentTarget.value)}
          />
          <label class="check">
            <input type="checkbox" checked={onlyFailing} onChange={(e) => go('events', selected, e.currentTarget.checked ? { failing: '1' } : {})} /> failing
            only
          </label>
        </div>
        <p class="summary" aria-live="polite">
          {plural(shown.length, 'event')}
          {shown.length !== list.length && ` of ${list.length.toLocaleString('en')}`} · {failingCount.toLocaleString('en')} failing
        </p>
        {list.length === 0 ? (
          <Empty>No events yet. Every change of a customer, account, card, authorisation or transaction writes one; they appear here as they happen.</Empty>
        ) : (
          <VirtualList
            items={shown}
            columns={COLUMNS}
            rowKey={(e) => e.id}
            selected={selected}
            onSelect={select}
            label="Events, newest first"
            rowClass={(e) => `state-${eventState(e.deliveries)}`}
          />
        )}
        {older && <Action label="Load older events" action={() => loadOlderEvents(programme)} />}
      </div>
      <div class="pane detail-pane">
        {selected ? (
          <EventDetail key={selected} id={selected} programme={programme} />
        ) : (
          <Empty>Select an event to see its body and every delivery attempt. ↑/↓ move through the list.</Empty>
        )}
      </div>
    </div>
  );
}
