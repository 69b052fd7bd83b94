/**
 * Where the page is: `#/<view>[/<id>][?programme=<id>&…]`. The hash keeps the view, the selected
 * item and the programme across a reload and makes every one of them a link.
 */
import { signal } from './state.js';

export const VIEWS = ['overview', 'world', 'events', 'requests', 'simulator', 'readiness'] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  view: View;
  /** The selected item: a resource, event or request id. */
  id?: string;
  query: Record<string, string>;
}

export function parseHash(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const [view, id] = path.split('/').map(decodeURIComponent);
  const query = Object.fromEntries(new URLSearchParams(search));
  return { view: (VIEWS as readonly string[]).includes(view ?? '') ? (view as View) : 'overview', ...(id ? { id } : {}), query };
}

export const route = signal<Route>(parseHash(typeof location === 'undefined' ? '' : location.hash));
if (typeof window !== 'undefined') window.addEventListener('hashchange', () => route.set(parseHash(location.hash)));

/** The programme the page shows: `default` unless the route names another. */
export const programmeOf = (r: Route = route.value) => r.query.programme ?? 'default';

/** A link to `view` (and `id`), keeping the programme; `query` adds to it. */
export function href(view: View, id?: string, query: Record<string, string> = {}, programme = programmeOf()): string {
  const params = new URLSearchParams({ ...(programme !== 'default' && { programme }), ...query }).toString();
  return `#/${view}${id ? `/${encodeURIComponent(id)}` : ''}${params ? `?${params}` : ''}`;
}

export function go(view: View, id?: string, query?: Record<string, string>): void {
  location.hash = href(view, id, query);
}
