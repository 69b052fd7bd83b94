/**
 * Requests (docs/inspector.md: The inspector): the programme's request journal, newest first and live — method,
 * path, status, time taken and the verification verdicts — with the selected request beside it.
 * Anchored on the Firebase Emulator UI's Requests monitor.
 */
import { useMemo, useState } from 'preact/hooks';
import type { JournalEntry } from '../api-types.js';
import { Badge, Empty } from '../components.js';
import { plural, statusText, statusTone, when } from '../format.js';
import { journal } from '../live.js';
import { go, route } from '../route.js';
import { useSignal } from '../state.js';
import { VirtualList, type Column } from '../virtual-list.js';
import { RequestDetail } from './request.js';

const verdicts = (r: JournalEntry) => [...new Set([...(r.verification?.failures.map((f) => f.code) ?? []), ...r.warnings])];

const COLUMNS: Column<JournalEntry>[] = [
  { label: 'Time (UTC)', width: '9.5rem', cell: (r) => <span class="mono">{when(r.time)}</span> },
  { label: 'Method', width: '4.5rem', cell: (r) => <span class="mono">{r.method}</span> },
  { label: 'Path', width: 'minmax(8rem, 1fr)', cell: (r) => <span class="mono">{r.path}</span> },
  { label: 'Status', width: '4rem', cell: (r) => <Badge state={statusText(r.status)} tone={statusTone(r.status)} /> },
  { label: 'ms', width: '3.5rem', cell: (r) => <span class="mono dim">{r.durationMs}</span> },
  {
    label: 'Verification',
    width: 'minmax(8rem, 1.2fr)',
    cell: (r) => (
      <>
        {verdicts(r).map((code) => (
          <Badge key={code} state={code} tone={r.verification?.outcome === 'refused' ? 'bad' : 'wait'} />
        ))}
        {r.replayed && <Badge state="replayed" tone="info" />}
        {r.fault && <Badge state={r.fault.reset ? 'fault: reset' : 'fault'} tone="wait" />}
      </>
    ),
  },
];

export function Requests({ selected }: { selected: string | undefined }) {
  const entries = useSignal(journal);
  const query = useSignal(route).query;
  const onlyFailed = query.failed === '1';
  const [path, setPath] = useState('');
  const shown = useMemo(
    () => entries.filter((r) => (!onlyFailed || r.status >= 400 || r.verification !== undefined) && (!path || r.path.includes(path.trim()))),
    [entries, onlyFailed, path],
  );
  const chosen = selected === undefined ? undefined : entries.find((r) => r.requestId === selected);
  const select = (r: JournalEntry | undefined) => go('requests', r?.requestId, onlyFailed ? { failed: '1' } : {});

  return (
    <div class="split">
      <div class="pane list-pane">
        <div class="toolbar">
          <input
            data-filter
            type="search"
            placeholder="Path contains…  ( / )"
            aria-label="Path contains"
            value={path}
            onInput={(e) => setPath(e.currentTarget.value)}
          />
          <label class="check">
            <input type="checkbox" checked={onlyFailed} onChange={(e) => go('requests', selected, e.currentTarget.checked ? { failed: '1' } : {})} /> refused or
            warned only
          </label>
        </div>
        <p class="summary" aria-live="polite">
          {plural(shown.length, 'request')}
          {shown.length !== entries.length && ` of ${entries.length.toLocaleString('en')}`}
        </p>
        {entries.length === 0 ? (
          <Empty>No API requests yet. Every /v1 request appears here as it is answered, with what request verification found.</Empty>
        ) : (
          <VirtualList
            items={shown}
            columns={COLUMNS}
            rowKey={(r) => r.requestId}
            selected={selected}
            onSelect={select}
            label="API requests, newest first"
            rowClass={(r) => (r.status >= 400 ? 'state-failed' : r.verification ? 'state-retrying' : '')}
          />
        )}
      </div>
      <div class="pane detail-pane">
        {chosen ? (
          <RequestDetail entry={chosen} />
        ) : (
          <Empty>
            {selected
              ? 'This request is no longer in the journal (it keeps the newest --journal-size requests).'
              : 'Select a request to see its answer and what request verification found.'}
          </Empty>
        )}
      </div>
    </div>
  );
}
