/**
 * The connections webhook attempts go over (send.ts): the keep-alive agents every attempt shares,
 * what an attempt needs of its callback URL, and the connection opened before any request is made.
 * A plain-HTTP attempt with no idle connection to reuse connects first and makes its request only
 * once connected, over that socket (the agent's documented `createConnection`, overridden): a
 * receiver that refuses the connection costs a socket and nothing of node:http's request.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { isLinkLocal } from '../domain/addresses.js';

export interface Agents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/** The request option that hands an open socket to the agent, which keeps it alive like one it opened. */
const OPENED = 'openedSocket';

class HttpAgent extends http.Agent {
  override createConnection(options: http.ClientRequestArgs, callback?: Parameters<http.Agent['createConnection']>[1]) {
    const opened = (options as Record<string, unknown>)[OPENED] as net.Socket | undefined;
    return opened ?? super.createConnection(options, callback);
  }
}

/**
 * Keep-alive agents shared by every attempt, at most `maxSockets` to one receiver. The pool
 * (send-pool.ts) bounds the attempts in flight, and a timed-out attempt destroys its socket, so a
 * hanging receiver cannot hold more sockets than the pool lets it.
 */
export function createAgents(maxSockets: number): Agents {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  const agents = { http: new HttpAgent(options), https: new https.Agent(options) };
  return { ...agents, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

/** What an attempt needs of its callback URL: the parts it signs, and the request options node:http would derive from it. */
export interface Target {
  authority: string;
  path: string;
  query: string;
  scheme: string;
  secure: boolean;
  options: http.RequestOptions;
}

/** Targets by callback URL: a delivery's every attempt, and a subscription's every delivery, go to the same one. */
const targets = new Map<string, Target>();
const MAX_TARGETS = 1000;

export function targetOf(callbackUrl: string): Target {
  let target = targets.get(callbackUrl);
  if (target === undefined) {
    const url = new URL(callbackUrl);
    target = {
      authority: url.host,
      path: url.pathname,
      query: url.search.slice(1),
      scheme: url.protocol.slice(0, -1),
      secure: url.protocol === 'https:',
      // What http.request(url, ...) would make of the URL itself (credentials included), made once.
      options: urlToHttpOptions(url),
    };
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(callbackUrl, target);
  }
  return target;
}

/**
 * Name resolution that refuses a link-local address (domain/addresses.ts): a callback host whose
 * name resolves there is not connected to. Node asks for one address or, to try each family in
 * turn, for all of them.
 */
export const guardedLookup: NonNullable<http.RequestOptions['lookup']> = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, address, family) => {
    if (error) return callback(error, address as string, family);
    const found = Array.isArray(address) ? (address as LookupAddress[]).map((a) => a.address) : [address as string];
    const refused = found.find(isLinkLocal);
    if (refused === undefined) return callback(null, address as string, family);
    const problem = Object.assign(new Error(`${hostname} resolves to ${refused}, a link-local address: not delivered there (--allow-link-local-callbacks)`), {
      code: 'ELINKLOCAL',
    });
    callback(problem, address as string, family);
  });
};

/**
 * For a plain-HTTP target the agent has no idle connection to, a connection opened now, and the
 * request options that make the request over it once it is open; undefined otherwise (the agent
 * connects, or reuses one). Should the agent reuse another connection after all, the request's
 * `socket` is not this one, which the caller then closes.
 */
export function openFirst(target: Target, agents: Agents, allowLinkLocal: boolean): { socket: net.Socket; options: Record<string, unknown> } | undefined {
  if (target.secure) return undefined;
  const host = target.options.hostname ?? 'localhost';
  const port = Number(target.options.port) || 80;
  if (agents.http.freeSockets[agents.http.getName({ host, port })]?.length) return undefined;
  const socket = net.connect({ host, port, keepAlive: true, ...(!allowLinkLocal && { lookup: guardedLookup }) });
  return { socket, options: { [OPENED]: socket } };
}
