/**
 * Network addresses the sandbox reasons about (docs/reliability.md: Open to a network): whether the
 * address it binds to is loopback — reachable from this machine alone — and which addresses a
 * webhook may not be delivered to. Link-local addresses (169.254.0.0/16, fe80::/10, and IPv4 ones
 * written as IPv6) are where cloud metadata services answer (169.254.169.254): a sandbox reachable
 * from a network would otherwise let any peer that can subscribe a webhook make it fetch from there.
 * They are refused unless `--allow-link-local-callbacks` says otherwise; loopback and private
 * addresses, where receivers live, are not.
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A host as URLs and flags write it, without IPv6 brackets, lower-cased. */
const bare = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');

/** Whether binding to `host` keeps the sandbox on this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = bare(host);
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v4 = IPV4.exec(h.replace(/^::ffff:/, ''));
  if (v4) return Number(v4[1]) === 127;
  return h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/** An IPv4 address written as IPv6 the way URLs normalise it (`::ffff:a9fe:a9fe`): its first two bytes. */
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/;

/** Whether `address` (an IP address, IPv4 or IPv6, bracketed or not) is link-local; false for a name. */
export function isLinkLocal(address: string): boolean {
  const h = bare(address);
  const v4 = IPV4.exec(h.replace(/^::ffff:/, ''));
  if (v4) return Number(v4[1]) === 169 && Number(v4[2]) === 254;
  const mapped = MAPPED_HEX.exec(h);
  if (mapped) return parseInt(mapped[1]!, 16) === 0xa9fe;
  // fe80::/10: the first ten bits 1111 1110 10, so fe80 to febf.
  return /^fe[89ab][0-9a-f]?:/.test(h);
}

/** Why a callback URL's host may not be delivered to; undefined when it may. */
export function callbackHostProblem(host: string, allowLinkLocal: boolean): string | undefined {
  if (allowLinkLocal || !isLinkLocal(host)) return undefined;
  return `must not be a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services answer; start the sandbox with --allow-link-local-callbacks to deliver there`;
}
