/**
 * Nothing but the user reaches the sandbox (docs/reliability.md: Reliability and security). Two checks, before
 * any route:
 * - the Host check (DNS rebinding): a page on another site whose name the attacker points at
 *   127.0.0.1 reaches a loopback port with its own name in `Host`. The sandbox answers only names
 *   that cannot be such a name — `localhost`, `*.localhost`, loopback addresses; when bound to
 *   another address (a container), also IP addresses and single-label names such as a Compose
 *   service's — and those `--allowed-hosts` names;
 * - the Origin check (cross-site requests): a browser sends `Origin` (and `Sec-Fetch-Site`) with a
 *   page's requests. On the control plane and the simulator, only the sandbox's own pages (the
 *   inspector) may; clients that send neither (curl, SDKs, the CLI, the companion) are untouched.
 *   The inspector's static files are exempt: a link to it from elsewhere opens it, and it then
 *   reads everything same-origin.
 */
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AllowedHosts } from '../../config/index.js';
import { SandboxError } from '../../domain/errors.js';
import type { AppEnv } from '../env.js';

/** `localhost:4242` → `localhost`, `[::1]:4242` → `::1`, lower case. */
export function hostName(host: string): string {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1' || name === '0:0:0:0:0:0:0:1';
}

/** Whether the sandbox, bound to `bind`, answers a request whose Host names `name`. */
export function hostAllowed(name: string, bind: string, allowed: AllowedHosts): boolean {
  if (allowed === 'all' || isLoopbackName(name)) return true;
  if (allowed.some((a) => (a.startsWith('.') ? name === a.slice(1) || name.endsWith(a) : name === a))) return true;
  // Bound to another address, it is meant to be reached by it: an address, or a name no page's site can have.
  return !isLoopbackName(hostName(bind)) && (isIP(name) !== 0 || (name !== '' && !name.includes('.')));
}

const FETCH_SITES_OF_A_PAGE_ELSEWHERE = new Set(['cross-site', 'same-site']);

/** Whether a request is a page's from another origin: what the control plane refuses. */
export function crossSite(origin: string | undefined, fetchSite: string | undefined, host: string): string | undefined {
  if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`) return origin;
  if (fetchSite !== undefined && FETCH_SITES_OF_A_PAGE_ELSEWHERE.has(fetchSite.toLowerCase())) return `a ${fetchSite.toLowerCase()} page`;
  return undefined;
}

const guarded = (path: string) => (path.startsWith('/_sandbox') && !path.startsWith('/_sandbox/ui')) || path.startsWith('/v1/simulator');

/** How many Host values a sandbox remembers its answer for: a client sends one, a few at most. */
const KNOWN_HOSTS = 64;

/** The check every request meets first: it throws the refusal (http/middleware/context.ts answers it). */
export function sameSite(bind: string, allowed: AllowedHosts): (c: Context<AppEnv>) => void {
  // Every request asks the same of the same few Host values: decided once each.
  const known = new Map<string, boolean>();
  const answers = (host: string) => {
    let ok = known.get(host);
    if (ok === undefined) {
      ok = hostAllowed(hostName(host), bind, allowed);
      if (known.size >= KNOWN_HOSTS) known.clear();
      known.set(host, ok);
    }
    return ok;
  };
  return (c) => {
    const host = c.req.header('Host');
    if (host !== undefined && !answers(host)) {
      throw new SandboxError(
        'host_not_allowed',
        `this sandbox does not answer to the Host "${host}": bound to ${bind}, it answers localhost, *.localhost and loopback addresses${isLoopbackName(hostName(bind)) ? '' : ', IP addresses and single-label names'}, so that a page on another site cannot reach it through DNS rebinding. To answer this name, start it with --allowed-hosts ${hostName(host)} (or CARD_SANDBOX_ALLOWED_HOSTS; all answers any name)`,
      );
    }
    if (guarded(c.req.path)) {
      // Without a Host (a request made in-process), the URL's is the one a browser would have sent.
      const from = crossSite(c.req.header('Origin'), c.req.header('Sec-Fetch-Site'), host ?? new URL(c.req.url).host);
      if (from !== undefined) {
        throw new SandboxError(
          'cross_site_request',
          `a request from ${from} may not reach ${c.req.path.startsWith('/v1') ? 'the simulator' : 'the control plane'}: only the sandbox's own pages (the inspector) and clients that send no Origin (curl, SDKs, the CLI, the test companion) may`,
        );
      }
    }
  };
}
