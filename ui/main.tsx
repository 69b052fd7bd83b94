/**
 * The inspector (docs/inspector.md: The inspector): a page served by the sandbox at /_sandbox/ui/ that shows a
 * programme's world, its events and deliveries, its requests and its clock, live. It is a client of
 * the control plane and its streams, like the CLI, with no other way in. This file is the frame:
 * the programme switcher, the clock, the views and the keyboard shortcuts.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { adminToken, setAdminToken, tokenNeeded } from './api.js';
import { Badge } from './components.js';
import { when } from './format.js';
import { clock, connect, link, programmes, refreshProgrammes } from './live.js';
import { go, href, programmeOf, route, VIEWS, type View } from './route.js';
import { useSignal } from './state.js';
import { Events } from './views/events.js';
import { Overview } from './views/overview.js';
import { ReportView } from './views/report.js';
import { Requests } from './views/requests.js';
import { Simulator } from './views/simulator.js';
import { TokenGate } from './views/token.js';
import { World } from './views/world.js';

const TITLES: Record<View, string> = {
  overview: 'Overview',
  world: 'World',
  events: 'Events',
  requests: 'Requests',
  simulator: 'Simulator',
  readiness: 'Readiness',
};
const THEMES = ['auto', 'light', 'dark'] as const;
type Theme = (typeof THEMES)[number];
const THEME_KEY = 'card-sandbox.theme';

function applyTheme(theme: Theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function ThemeButton() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(THEME_KEY) as Theme | null) ?? 'auto');
  useEffect(() => applyTheme(theme), [theme]);
  const next = () => {
    const t = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]!;
    localStorage.setItem(THEME_KEY, t);
    setTheme(t);
  };
  return (
    <button type="button" class="quiet" onClick={next} title="Colour theme: follows the system when auto">
      Theme: {theme}
    </button>
  );
}

function ProgrammeSwitcher({ programme }: { programme: string }) {
  const list = useSignal(programmes);
  if (list.length <= 1) return <span class="programme">Programme: {programme}</span>;
  return (
    <label class="programme">
      <span>Programme</span>
      <select
        value={programme}
        onFocus={() => void refreshProgrammes().catch(() => undefined)}
        onChange={(e) => (location.hash = href(route.value.view, undefined, {}, e.currentTarget.value))}
      >
        {list.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name === p.id ? p.id : `${p.name} (${p.id.slice(0, 8)})`}
          </option>
        ))}
      </select>
    </label>
  );
}

function Shortcuts({ onClose }: { onClose: () => void }) {
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={onClose}>
      <div class="panel" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <dl class="facts">
          {[
            ['1 – 6', 'Overview, World, Events, Requests, Simulator, Readiness'],
            ['/', 'filter the list in view'],
            ['↑ ↓  j k', 'move through a list or the world tree'],
            ['Home End PgUp PgDn', 'jump in a list'],
            ['Esc', 'clear the selection, close this'],
            ['Tab', 'every button, link and field'],
          ].map(([k, v]) => (
            <div key={k}>
              <dt>
                <kbd>{k}</kbd>
              </dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </div>
  );
}

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

function App() {
  const r = useSignal(route);
  const programme = programmeOf(r);
  const needToken = useSignal(tokenNeeded);
  const token = useSignal(adminToken);
  const state = useSignal(link);
  const c = useSignal(clock);
  const [help, setHelp] = useState(false);

  useEffect(() => {
    connect(programme);
    void refreshProgrammes().catch(() => undefined);
  }, [programme, token]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') return setHelp(false);
      if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      const view = VIEWS[Number(e.key) - 1];
      if (view) return go(view);
      if (e.key === '?') return setHelp((h) => !h);
      if (e.key === '/') {
        const filter = document.querySelector<HTMLElement>('main [data-filter]');
        if (filter) {
          e.preventDefault();
          filter.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    document.title = `${TITLES[r.view]} · card-sandbox inspector`;
  }, [r.view]);

  const view = needToken ? (
    <TokenGate />
  ) : r.view === 'world' ? (
    <World programme={programme} selected={r.id} />
  ) : r.view === 'events' ? (
    <Events programme={programme} selected={r.id} />
  ) : r.view === 'requests' ? (
    <Requests selected={r.id} />
  ) : r.view === 'simulator' ? (
    <Simulator programme={programme} />
  ) : r.view === 'readiness' ? (
    <ReportView programme={programme} />
  ) : (
    <Overview programme={programme} />
  );

  return (
    <>
      <header class="top">
        <a class="brand" href={href('overview')}>
          card-sandbox <span>inspector</span>
        </a>
        <ProgrammeSwitcher programme={programme} />
        <span class="clock-chip" title="The programme's sandbox clock">
          {c ? `${when(c.now)} UTC${c.frozen ? ' · frozen' : ''}` : '…'}
        </span>
        <Badge
          state={state === 'live' ? 'live' : state === 'down' ? 'reconnecting' : 'connecting'}
          tone={state === 'live' ? 'ok' : state === 'down' ? 'bad' : 'wait'}
          title="Live updates over the control plane's streams"
        />
        <span class="spacer" />
        <button type="button" class="quiet" onClick={() => setHelp(true)} title="Keyboard shortcuts (?)">
          Keys
        </button>
        <ThemeButton />
        {token && (
          <button type="button" class="quiet" onClick={() => setAdminToken(undefined)}>
            Forget token
          </button>
        )}
      </header>
      <nav class="tabs" aria-label="Views">
        {VIEWS.map((v, i) => (
          <a key={v} href={href(v)} aria-current={r.view === v ? 'page' : undefined} aria-keyshortcuts={String(i + 1)}>
            <kbd>{i + 1}</kbd> {TITLES[v]}
          </a>
        ))}
      </nav>
      <main id="main" class={`view-${r.view}`}>
        {view}
      </main>
      {help && <Shortcuts onClose={() => setHelp(false)} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
