/**
 * /openapi.json stands in for the service's document in an integrator's toolchain (docs/api.md:
 * Where the sandbox differs from the service's document): openapi-typescript generates a client's
 * types from each, and one program written against the service's — openapi-fetch calls through the
 * journey, its named types, values built in its shapes, its webhook bodies — type-checks against
 * both. The service's document is read from a fixture of its structure (testing/fixtures), never
 * from outside the project. The control plane's document generates types that check too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { REFERENCE_STRUCTURE } from '../testing/openapi-schemas.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const REFERENCE = JSON.parse(readFileSync(REFERENCE_STRUCTURE, 'utf8')) as Record<string, unknown>;
// Inside the project, so that the program finds openapi-fetch in node_modules.
mkdirSync(join(ROOT, 'node_modules/.cache/card-sandbox'), { recursive: true });
const DIR = mkdtempSync(join(ROOT, 'node_modules/.cache/card-sandbox/clients-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** What an integrator writes against the client generated from the service's document. */
const PROGRAM = `
import createClient from 'openapi-fetch';
import type { components, paths, webhooks } from './API';

type Schemas = components['schemas'];
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4242/v1' });
const read = { Signature: 'sig=:AA==:', 'Signature-Input': 'sig=("@method");keyid="k"' };
const write = (key: string) => ({ header: { ...read, 'Idempotency-Key': key } });
const withBody = (key: string) => ({ header: { ...read, 'Idempotency-Key': key, 'Content-Digest': 'sha-512=:AA==:' } });

export async function journey(wallet: Schemas['BlockchainAccountId'], sign: (challenge: string) => Promise<string>): Promise<Schemas['TransactionStatus'][]> {
  const token = await client.POST('/auth/token', { body: { apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret' } });
  const auth: Schemas['Authentication'] | undefined = token.data;
  if (!auth) throw new Error(String(token.response.status));
  const created = await client.POST('/customers', { params: withBody('k1'), body: { chainId: wallet, externalId: 'user-1' } });
  if (!created.data) throw new Error('no customer');
  const customerId: Schemas['CustomerId'] = created.data.id;
  const status: Schemas['CustomerStatus'] = created.data.status;
  await client.POST('/customers/{customerId}/challenge/sign', {
    params: { path: { customerId }, ...withBody('k2') },
    body: { ownerId: wallet, challenge: created.data.challenge, signature: await sign(created.data.challenge) },
  });
  await client.PATCH('/simulator/customers/{customerId}/verify', { params: { path: { customerId }, ...write('k3') } });
  const account = (await client.POST('/customers/{customerId}/accounts', { params: { path: { customerId }, ...withBody('k4') }, body: { type: 'card_account', currencies: ['EUR'] } })).data;
  if (!account) throw new Error(status);
  const accountId: Schemas['AccountId'] = account.id;
  const currencies: string[] = account.currencies ?? [];
  const billingAddress: Schemas['Address'] = { firstLine: '1 Main St', city: 'London', country: 'GB', postCode: 'N1 1AA' };
  const card = (await client.POST('/accounts/{accountId}/cards', { params: { path: { accountId }, ...withBody('k5') }, body: { type: 'virtual', billingAddress } })).data;
  if (!card) throw new Error(currencies.join());
  const cardStatus: Schemas['CardStatus'] = card.status;
  const network: Schemas['CardNetwork'] | undefined = card.network;
  await client.PATCH('/simulator/cards/{cardId}/issue', { params: { path: { cardId: card.id }, ...write('k6') } });
  const held = await client.POST('/simulator/cards/{cardId}/authorisation', {
    params: { path: { cardId: card.id }, ...withBody('k7') },
    body: { amount: '12.50', currency: 'USD', capture: true },
  });
  const authorisation: Schemas['Authorisation'] | undefined = held.data;
  const amount: Schemas['Decimal'] | undefined = authorisation?.amount;
  const authorisationStatus: Schemas['AuthorisationStatus'] | undefined = authorisation?.status;
  const transactions = (await client.GET('/cards/{cardId}/transactions', { params: { path: { cardId: card.id }, header: read } })).data ?? [];
  const fees: Schemas['FeeType'][] = transactions.flatMap((t) => t.fees.map((f) => f.type));
  const token_: Schemas['BlockchainAssetId'][] = transactions.map((t) => t.token);
  const chains = (await client.GET('/chains', { params: { header: read } })).data ?? [];
  const chainIds: Schemas['BlockchainId'][] = chains.map((c) => c.id);
  const assets = await client.GET('/assets', { params: { query: { chain: chainIds[0] }, header: read } });
  const hook = await client.PUT('/webhooks', { params: withBody('k8'), body: { callbackUrl: 'https://example.com/hooks', types: ['card.updated'] } });
  const hookId: Schemas['WebhookId'] | undefined = hook.data?.id;
  const key: Schemas['VerificationKey'] | undefined = (await client.GET('/webhooks/verification-key', { params: { header: read } })).data;
  void [cardStatus, network, amount, authorisationStatus, fees, token_, assets, hookId, key];
  return transactions.map((t) => t.status);
}

// Values built in the document's shapes, as a test's mocks are: only what it requires.
export const account: Schemas['Account'] = {
  id: '00000000-0000-4000-8000-000000000001',
  customerId: '00000000-0000-4000-8000-000000000002',
  status: 'active',
  type: 'card_account',
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
};
export const card: Schemas['Card'] = { id: account.id, accountId: account.id, type: 'virtual', status: 'issuing', createdAt: account.createdAt, updatedAt: account.updatedAt };
export const authorisation: Schemas['Authorisation'] = {
  id: account.id,
  accountId: account.id,
  status: 'pending',
  amount: '1',
  currency: 'EUR',
  merchantAmount: '1',
  merchantCurrency: 'EUR',
  exchangeRate: '1',
  merchant: { id: 'TEST', name: 'Test Merchant', mcc: 9999, country: 'GB', city: 'London' },
  createdAt: account.createdAt,
  updatedAt: account.updatedAt,
};
export const info: Schemas['CustomerInfo'] = { name: 'A B', dateOfBirth: '1990-01-01', address: { firstLine: 'x', city: 'y', country: 'GB', postCode: 'z' } };

// What a webhook receiver reads.
type Delivery = NonNullable<webhooks['{callbackUrl}']['post']['requestBody']>['content']['application/json'];
export function onDelivery(event: Delivery): string {
  const any: Schemas['WebhookEvent'] = event;
  const type: Schemas['WebhookType'] = any.webhookType;
  const id: Schemas['UUID'] = any.eventId;
  return \`\${type} \${id} \${any.status}\`;
}
export const updates: [Schemas['CustomerUpdate'], Schemas['AccountUpdate'], Schemas['CardUpdate'], Schemas['AuthorisationUpdate'], Schemas['TransactionUpdate']] | undefined = undefined;
export const base: Schemas['WebhookEventBase'] = { eventId: account.id, webhookType: 'card.updated' };
export const answer: Schemas['WebhookResponse'] = {} satisfies Schemas['EmptyResponse'];
export const named: [Schemas['DateTime'], Schemas['URL'], Schemas['CardType'], Schemas['AccountStatus'], Schemas['AccountType'], Schemas['TransactionDirection'], Schemas['BlockchainTransactionId']] = [
  '', '', 'virtual', 'active', 'card_account', 'debit', '',
];
export const signatureHeader: components['parameters']['SignatureHeader'] = 'sig=:AA==:';
`;

async function typesOf(document: Record<string, unknown>): Promise<string> {
  return astToString(await openapiTS(document as never, { silent: true }));
}

/**
 * tsc --strict over folders of files (folder → relative name → text), each written to a folder of its
 * own, in one program, so that the standard library is read and checked once: each folder's
 * diagnostics, one a line, with those of files outside every folder (the libraries') in each.
 */
function typeCheck(folders: Record<string, Record<string, string>>): Record<string, string[]> {
  const roots = Object.entries(folders).flatMap(([name, files]) => {
    mkdirSync(join(DIR, name), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(DIR, name, file), text);
    return Object.keys(files).map((file) => join(DIR, name, file));
  });
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: false,
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ({
    folder: d.file?.fileName.startsWith(`${DIR}/`) ? d.file.fileName.slice(DIR.length + 1).split('/')[0] : undefined,
    text: `${d.file ? `${d.file.fileName.slice(DIR.length + 1)}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  }));
  return Object.fromEntries(
    Object.keys(folders).map((name) => [name, diagnostics.filter((d) => d.folder === undefined || d.folder === name).map((d) => d.text)]),
  );
}

const CONTROL_PROGRAM = `import type { paths } from './api.js';
type Advance = NonNullable<paths['/_sandbox/clock/advance']['post']['requestBody']>['content']['application/json'];
export const by: Advance = { by: '1d' };
// @ts-expect-error: one of by or to
export const neither: Advance = {};
`;

/** The three clients' folders, checked once for both tests. */
let checked: Promise<Record<string, string[]>> | undefined;
const diagnostics = () =>
  (checked ??= (async () => {
    const sb = createTestSandbox();
    const [sandbox, control] = await Promise.all(
      ['/openapi.json', '/_sandbox/openapi.json'].map(async (url) => (await sb.json('GET', url, { token: false })).body as Record<string, unknown>),
    );
    const program = PROGRAM.replace("'./API'", "'./api.js'");
    const files = (types: string, text: string) => ({ 'api.ts': types, 'program.ts': text, 'package.json': '{"type":"module"}' });
    return typeCheck({
      reference: files(await typesOf(REFERENCE), program),
      sandbox: files(await typesOf(sandbox!), program),
      control: files(await typesOf(control!), CONTROL_PROGRAM),
    });
  })());

describe('a client generated from /openapi.json and one from the service document', () => {
  it('type-check the same program, written against the service document', async () => {
    const checks = await diagnostics();
    // The program is right for the service's own client: the fixture and the program agree.
    expect(checks.reference).toEqual([]);
    expect(checks.sandbox).toEqual([]);
  });

  it('and the control plane generates types that check', async () => {
    expect((await diagnostics()).control).toEqual([]);
  });
});
