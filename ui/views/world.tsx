/**
 * World (docs/inspector.md: The inspector): the programme's webhooks and customers → accounts → cards →
 * authorisations and transactions as a tree with their states, read again whenever an event
 * arrives; the selected resource's current JSON, its events, the simulator's actions for its
 * state, and its money: an account's funds, a hold's amount update and captures, a card's force post. ↑/↓ move through the tree; `/` filters it.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { control } from '../api.js';
import { ResourceActions } from '../actions.js';
import { Badge, Copy, DeliveriesBadge, Empty, Facts, Failure, Json, Panel } from '../components.js';
import { shortId, statusIn, when } from '../format.js';
import { worldChanged } from '../live.js';
import { useLoad, useSettled } from '../load.js';
import { href } from '../route.js';
import { useSignal } from '../state.js';
import { filterRows, treeRows, type TreeRow } from '../tree.js';
import { ResourceMoney } from './world-money.js';

const KIND_LABEL: Record<TreeRow['kind'], string> = {
  webhook: 'Webhook',
  customer: 'Customer',
  account: 'Account',
  card: 'Card',
  authorisation: 'Authorisation',
  transaction: 'Transaction',
};

function EntityEvents({ id, programme }: { id: string; programme: string }) {
  const changed = useSettled(useSignal(worldChanged), 250);
  const list = useLoad(() => control.listEvents({ entityId: id, limit: 100 }, { programme }), [id, programme, changed]);
  if (list.error) return <Failure error={list.error} />;
  if (!list.data) return null;
  if (list.data.length === 0) return <Empty>No events.</Empty>;
  return (
    <ul class="plain-list">
      {list.data.map((e) => (
        <li key={e.id}>
          <a href={href('events', e.id)}>
            <span class="mono">{when(e.createdAt)}</span> <code>{e.type}</code>{' '}
            {statusIn(e.body) && (
              <>
                → <Badge state={statusIn(e.body)!} />
              </>
            )}{' '}
            <span class="mono dim">{shortId(e.id)}</span> <DeliveriesBadge event={e} />
          </a>
        </li>
      ))}
    </ul>
  );
}

function Resource({ row, programme }: { row: TreeRow; programme: string }) {
  const json = row.json as { createdAt?: string; updatedAt?: string };
  return (
    <Panel title={`${KIND_LABEL[row.kind]} ${row.kind === 'customer' ? row.label : shortId(row.id)}`} actions={row.status && <Badge state={row.status} />}>
      <Facts
        rows={[
          [
            'id',
            <span class="mono">
              {row.id} <Copy text={row.id} />
            </span>,
          ],
          ...(json.createdAt ? [['created', `${when(json.createdAt)} UTC`] as [string, string]] : []),
          ...(json.updatedAt ? [['updated', `${when(json.updatedAt)} UTC`] as [string, string]] : []),
        ]}
      />
      <ResourceActions key={`${row.id} ${row.status}`} row={row} />
      <ResourceMoney key={`${row.id} ${row.status} money`} row={row} programme={programme} />
      <Json value={row.json} label="Current JSON, as GET /v1 returns it" />
      {row.kind !== 'webhook' && (
        <>
          <h3>Events</h3>
          <EntityEvents id={row.id} programme={programme} />
        </>
      )}
    </Panel>
  );
}

export function World({ programme, selected }: { programme: string; selected: string | undefined }) {
  const changed = useSettled(useSignal(worldChanged), 150);
  const world = useLoad(() => control.getWorld({ programme }), [programme, changed]);
  const [filter, setFilter] = useState('');
  const all = useMemo(() => (world.data ? treeRows(world.data) : []), [world.data]);
  const rows = useMemo(() => filterRows(all, filter), [all, filter]);
  const chosen = all.find((r) => r.id === selected);
  const tree = useRef<HTMLUListElement>(null);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const links = [...(tree.current?.querySelectorAll('a') ?? [])];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = links[Math.min(links.length - 1, Math.max(0, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    e.preventDefault();
    next.focus();
    next.click();
  };

  return (
    <div class="split">
      <div class="pane tree-pane">
        <div class="toolbar">
          <input
            data-filter
            type="search"
            placeholder="Filter: id, external id, PAN, status…  ( / )"
            aria-label="Filter the world"
            value={filter}
            onInput={(e) => setFilter(e.currentTarget.value)}
          />
        </div>
        <Failure error={world.error} />
        {world.data && all.length === 0 && <Empty>The world is empty: create a customer through the API, or load a seed world.</Empty>}
        <ul class="tree" role="tree" aria-label="World" ref={tree} onKeyDown={onKeyDown}>
          {rows.map((row) => (
            <li
              key={row.id}
              role="treeitem"
              aria-level={row.depth + 1}
              aria-selected={row.id === selected}
              class={`${row.kind}${row.id === selected ? ' selected' : ''}`}
              style={{ paddingLeft: `${row.depth * 1.1 + 0.4}rem` }}
            >
              <a href={href('world', row.id)} data-kind={row.kind}>
                <span class="kind">{row.kind}</span>
                <span class="label">{row.label}</span>
                {row.status && <Badge state={row.status} />}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div class="pane detail-pane">
        {chosen ? (
          <Resource row={chosen} programme={programme} />
        ) : (
          <Empty>
            {selected && world.data
              ? `Nothing with id ${selected} in this programme.`
              : 'Select a customer, account, card, authorisation or transaction to see its JSON and its events.'}
          </Empty>
        )}
      </div>
    </div>
  );
}
