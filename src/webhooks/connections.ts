/**
 * The connections webhook attempts go over (send.ts): the keep-alive agents every attempt shares,
 * what an attempt needs of its callback URL, and the connection opened before any request is made.
 * A plain-HTTP attempt with no idle connection to reuse connects first and makes its request only
 * once connected, over that socket (the agent's documented `createConnection`, overridden): a
 * receiver that refuses the connection costs a socket and nothing of node:http's request. Attempts
 * that start while a connection to the same receiver is being opened wait for that one rather than
 * open their own: refused, they fail with its error, having cost no socket at all (time travel sends
 * a batch of attempts together, often to one receiver); connected, each opens its own.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { isLinkLocal } from '../domain/addresses.js';

/** The attempts waiting on a connection being opened: each told its error, or nothing once it is open or given up. */
type Waiting = Set<(error?: Error) => void>;

export interface Agents {
  http: http.Agent;
  https: https.Agent;
  /** The connections being opened first now, by receiver (`connectFirst`). */
  opening: Map<string, Waiting>;
  destroy(): void;
}

/** The request option that hands an open socket (`Opened`) to the agent, which keeps it alive like one it opened. */
export const OPENED = 'openedSocket';

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
  return { ...agents, opening: new Map(), destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

/** What an attempt needs of its callback URL: the parts it signs, and the request options node:http would derive from it. */
export interface Target {
  authority: string;
  path: string;
  query: string;
  scheme: string;
  secure: boolean;
  /** What node:http takes of the URL: a plain object, which a request's options are made from at a few nanoseconds' cost. */
  options: Pick<http.RequestOptions, 'protocol' | 'hostname' | 'port' | 'path' | 'auth'>;
}

/** Targets by callback URL: a delivery's every attempt, and a subscription's every delivery, go to the same one. */
const targets = new Map<string, Target>();
const MAX_TARGETS = 1000;

/** urlToHttpOptions' object has no prototype, which V8 keeps as a dictionary: copying it into each request's options cost microseconds. */
const pickRequestOptions = ({ protocol, hostname, port, path, auth }: http.RequestOptions): Target['options'] => ({ protocol, hostname, port, path, auth });

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
      options: pickRequestOptions(urlToHttpOptions(url)),
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

/** A connection opened first: the request made over it names it in its options (`OPENED`). */
export interface Opened {
  socket: net.Socket;
}

/**
 * For a plain-HTTP target the agent has no idle connection to, opens a connection now and calls
 * `connected` once it is open, or `failed` with node:net's error if it cannot be. Should another
 * attempt be opening one to the same receiver already, it waits for that one instead: that one's
 * error is this attempt's too; once that one is open (or given up), this attempt opens its own.
 * Returns undefined when there is nothing to open (https, or an idle connection the agent reuses),
 * else what gives up: it closes the connection being opened, or stops waiting. Should the agent
 * reuse another connection after all, the request's `socket` is not the opened one, which the caller
 * then closes.
 */
export function connectFirst(
  target: Target,
  agents: Agents,
  allowLinkLocal: boolean,
  connected: (opened: Opened) => void,
  failed: (error: Error) => void,
): (() => void) | undefined {
  if (target.secure) return undefined;
  const host = target.options.hostname ?? 'localhost';
  const port = Number(target.options.port) || 80;
  if (agents.http.freeSockets[agents.http.getName({ host, port })]?.length) return undefined;
  const key = `${allowLinkLocal} ${host} ${port}`;
  let giveUp: () => void;
  const open = (waiting?: Waiting) => {
    const socket = net.connect({ host, port, keepAlive: true, ...(!allowLinkLocal && { lookup: guardedLookup }) });
    const done = (error?: Error) => {
      socket.off('error', refused).off('connect', ready);
      if (waiting === undefined) return;
      agents.opening.delete(key);
      for (const wake of waiting) wake(error);
    };
    const refused = (error: Error) => (done(error), failed(error));
    const ready = () => (done(), connected({ socket }));
    socket.once('error', refused).once('connect', ready);
    giveUp = () => (done(), socket.destroy());
  };
  const other = agents.opening.get(key);
  if (other === undefined) {
    const waiting: Waiting = new Set();
    agents.opening.set(key, waiting);
    open(waiting);
  } else {
    // Told once the other is open or refused: each waiting attempt then opens its own at once, or fails.
    const wake = (error?: Error) => (error ? failed(error) : open());
    other.add(wake);
    giveUp = () => other.delete(wake);
  }
  return () => giveUp();
}
