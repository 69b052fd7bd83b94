/**
 * The world (GET /_sandbox/world) as the rows of a tree: webhooks, then customers → accounts →
 * cards → authorisations and transactions, each with its depth, a label a person recognises and its
 * current JSON as GET /v1 returns it (the children taken out). A filter keeps the rows that match
 * and the rows above them.
 */
import type { Authorisation, Transaction, Webhook, World, WorldAccount, WorldCard, WorldCustomer } from './api-types.js';

export type Kind = 'webhook' | 'customer' | 'account' | 'card' | 'authorisation' | 'transaction';

export interface TreeRow {
  kind: Kind;
  id: string;
  depth: number;
  label: string;
  status?: string;
  /** The resource without its children: exactly the API's JSON. */
  json: Record<string, unknown>;
  /** The id of the row above it. */
  parent?: string;
}

const customerRow = ({ accounts: _, ...json }: WorldCustomer): TreeRow => ({
  kind: 'customer',
  id: json.id,
  depth: 0,
  label: json.externalId,
  status: json.status,
  json,
});
const accountRow = ({ cards: _, transactions: __, ...json }: WorldAccount, parent: string): TreeRow => ({
  kind: 'account',
  id: json.id,
  depth: 1,
  label: (json.currencies ?? []).join(', '),
  status: json.status,
  json,
  parent,
});
const cardRow = ({ authorisations: _, transactions: __, ...json }: WorldCard, parent: string): TreeRow => ({
  kind: 'card',
  id: json.id,
  depth: 2,
  label: `${json.type}${json.maskedPan ? ` ${json.maskedPan}` : ''}${json.expirationDate ? ` · ${json.expirationDate}` : ''}`,
  status: json.status,
  json,
  parent,
});
const authorisationRow = (a: Authorisation, parent: string): TreeRow => ({
  kind: 'authorisation',
  id: a.id,
  depth: 3,
  label: `${a.merchantAmount} ${a.merchantCurrency} · ${a.merchant.name}`,
  status: a.status,
  json: a,
  parent,
});
const transactionRow = (t: Transaction, parent: string, depth: number): TreeRow => ({
  kind: 'transaction',
  id: t.id,
  depth,
  label: `${t.amount} ${t.currency}${t.direction === 'credit' ? ' · credit' : ''}`,
  status: t.status,
  json: t,
  parent,
});
const webhookRow = (w: Webhook): TreeRow => ({ kind: 'webhook', id: w.id, depth: 0, label: w.callbackUrl, json: w });

export function treeRows(world: World): TreeRow[] {
  const rows: TreeRow[] = world.webhooks.map(webhookRow);
  for (const customer of world.customers) {
    rows.push(customerRow(customer));
    for (const account of customer.accounts) {
      rows.push(accountRow(account, customer.id));
      for (const card of account.cards) {
        rows.push(cardRow(card, account.id));
        for (const a of card.authorisations) rows.push(authorisationRow(a, card.id));
        for (const t of card.transactions) rows.push(transactionRow(t, card.id, 3));
      }
      for (const t of account.transactions ?? []) rows.push(transactionRow(t, account.id, 2));
    }
  }
  return rows;
}

/** The rows whose id, label, status or JSON contain `text`, with every row above them. */
export function filterRows(rows: TreeRow[], text: string): TreeRow[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return rows;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const kept = new Set<string>();
  for (const row of rows) {
    if (!JSON.stringify(row.json).toLowerCase().includes(needle) && !row.label.toLowerCase().includes(needle)) continue;
    for (let r: TreeRow | undefined = row; r && !kept.has(r.id); r = r.parent ? byId.get(r.parent) : undefined) kept.add(r.id);
  }
  return rows.filter((r) => kept.has(r.id));
}
