/**
 * Comparing the two services' answers to one step (docs/parity.md: Reading a difference): status,
 * content type, error code, then the body's shape — fields present and missing, types and formats,
 * enumeration values, and the order of lists. Ids are read through each side's labels (`<card-2>`),
 * so that the two services' own ids pair up; a list item whose id the journey did not make on that
 * side (something the account held before) is left out. Pure.
 */
import type { Difference } from './difference.js';
import { comparedByValue, describe, errorCodeOf, formatOf, identityOf, mediaType, typeOf } from './shape.js';

/** What one service answered to a step, or why there is no answer (`none`: "no answer: ECONNREFUSED", "not run: no card-2"). */
export interface Answer {
  status?: number;
  contentType?: string;
  body?: unknown;
  none?: string;
}

/** The label a side gave one of its ids (`card-2`), or undefined for an id the journey did not make. */
export type LabelOf = (id: string) => string | undefined;

interface Sides {
  upstream: LabelOf;
  local: LabelOf;
}

const isUuid = (value: string) => formatOf(value) === 'uuid';

/** The differences between two answers to the same step. */
export function compareAnswers(upstream: Answer, local: Answer, labels: Sides): Difference[] {
  if (upstream.none !== undefined || local.none !== undefined) {
    if (upstream.none !== undefined && local.none !== undefined) return [];
    return [{ kind: 'status', where: 'status', upstream: upstream.none ?? upstream.status ?? null, local: local.none ?? local.status ?? null }];
  }
  const differences: Difference[] = [];
  const [us, ls] = [upstream.status!, local.status!];
  if (us !== ls) differences.push({ kind: 'status', where: 'status', upstream: us, local: ls });
  const [ut, lt] = [mediaType(upstream.contentType), mediaType(local.contentType)];
  if (ut !== lt) differences.push({ kind: 'content-type', where: 'content-type', upstream: ut || null, local: lt || null });
  if (us >= 400 && ls >= 400) {
    const [uc, lc] = [errorCodeOf(upstream.body), errorCodeOf(local.body)];
    if (uc !== lc) differences.push({ kind: 'error-code', where: 'body.code', upstream: uc ?? null, local: lc ?? null });
  }
  // A success against a refusal: their bodies are different things, the status says it all.
  if (us >= 400 === ls >= 400) compareValues(upstream.body, local.body, 'body', undefined, labels, differences);
  return differences;
}

function compareValues(u: unknown, l: unknown, where: string, key: string | undefined, labels: Sides, out: Difference[]): void {
  const [ut, lt] = [typeOf(u), typeOf(l)];
  if (u === undefined || l === undefined) {
    if (u !== l)
      out.push({
        kind: u === undefined ? 'extra-field' : 'missing-field',
        where,
        upstream: u === undefined ? null : describe(u),
        local: l === undefined ? null : describe(l),
      });
    return;
  }
  if (ut !== lt) {
    out.push({ kind: 'type', where, upstream: describe(u), local: describe(l) });
    return;
  }
  if (ut === 'object') return compareObjects(u as Record<string, unknown>, l as Record<string, unknown>, where, labels, out);
  if (ut === 'array') return compareLists(u as unknown[], l as unknown[], where, key, labels, out);
  if (ut === 'boolean' && u !== l && comparedByValue(key)) out.push({ kind: 'enum-value', where, upstream: u, local: l });
  if (ut === 'string') compareStrings(u as string, l as string, where, key, out);
}

function compareStrings(u: string, l: string, where: string, key: string | undefined, out: Difference[]): void {
  const [uf, lf] = [formatOf(u), formatOf(l)];
  const plain = (f: string) => f === 'word' || f === 'text';
  const byValue = comparedByValue(key) && (uf === 'word' || lf === 'word');
  if (uf === lf || (plain(uf) && plain(lf))) {
    if (byValue && u !== l) out.push({ kind: 'enum-value', where, upstream: u, local: l });
    return;
  }
  out.push({ kind: 'type', where, upstream: `string (${uf})`, local: `string (${lf})` });
}

function compareObjects(u: Record<string, unknown>, l: Record<string, unknown>, where: string, labels: Sides, out: Difference[]): void {
  const keys = [...new Set([...Object.keys(u), ...Object.keys(l)])];
  for (const key of keys) compareValues(u[key], l[key], `${where}.${key}`, key, labels, out);
}

/**
 * The identities of a list's items on one side, or undefined when some item has none. An item is
 * known by its label when the run kept its id (`<card-2>`). In a list of what the run made — one
 * where either side holds an id it kept — the other items were there before and are left out, as
 * is, in any list, an item whose UUID the run did not make; a list of things no run makes (chains,
 * assets, a problem's errors) is paired by the items' own ids.
 */
function identities(items: unknown[], labelOf: LabelOf, ours: boolean): { item: unknown; id: string }[] | undefined {
  const ids = items.map(identityOf);
  if (ids.some((id) => id === undefined)) return undefined;
  return items.flatMap((item, i) => {
    const id = ids[i]!;
    const label = labelOf(id);
    if (label !== undefined) return [{ item, id: `<${label}>` }];
    return ours || isUuid(id) ? [] : [{ item, id }];
  });
}

const holdsKept = (items: unknown[], labelOf: LabelOf) =>
  items.some((item) => {
    const id = identityOf(item);
    return id !== undefined && labelOf(id) !== undefined;
  });

function compareLists(u: unknown[], l: unknown[], where: string, key: string | undefined, labels: Sides, out: Difference[]): void {
  const ours = holdsKept(u, labels.upstream) || holdsKept(l, labels.local);
  const ui = identities(u, labels.upstream, ours);
  const li = identities(l, labels.local, ours);
  // Items without identity (amounts, currencies, fees) pair by position.
  if (ui === undefined || li === undefined) {
    for (let i = 0; i < Math.max(u.length, l.length); i++) compareValues(u[i], l[i], `${where}[${i}]`, key, labels, out);
    return;
  }
  const local = new Map(li.map((e) => [e.id, e.item]));
  const upstream = new Map(ui.map((e) => [e.id, e.item]));
  for (const { id, item } of ui) {
    if (local.has(id)) compareValues(item, local.get(id), `${where}[${id}]`, key, labels, out);
    else out.push({ kind: 'missing-field', where: `${where}[${id}]`, upstream: describe(item), local: null });
  }
  for (const { id, item } of li) if (!upstream.has(id)) out.push({ kind: 'extra-field', where: `${where}[${id}]`, upstream: null, local: describe(item) });
  const both = (list: { id: string }[], other: Map<string, unknown>) => list.map((e) => e.id).filter((id) => other.has(id));
  const [uo, lo] = [both(ui, local), both(li, upstream)];
  if (uo.join('\n') !== lo.join('\n')) out.push({ kind: 'order', where, upstream: uo, local: lo });
}
