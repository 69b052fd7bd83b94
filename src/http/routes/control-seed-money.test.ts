/**
 * Seed worlds with the money path's states (docs/money-path.md: Seed worlds with payments): cards
 * blocked and suspended, accounts failed, and cards' payments — held, captured whole or in part,
 * released, reversed, refunded — each reached through the same services as the API and the
 * controls, all or nothing.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../../testing/harness.js';
import { payments } from '../../testing/payments.js';

const seed = (sb: TestSandbox, body: unknown) => sb.json('POST', '/_sandbox/seed', { body, token: false });

describe('POST /_sandbox/seed with the money path', () => {
  it('loads blocked and suspended cards, a failed account, and payments in every state a seed may ask for', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, {
      customers: [
        {
          externalId: 'alice',
          accounts: [
            {
              currencies: ['EUR'],
              cards: [
                {
                  status: 'blocked',
                  authorisations: [
                    { amount: '20', currency: 'EUR', merchant: { name: 'Bakery' }, refunds: [{ amount: '5', currency: 'EUR' }] },
                    { amount: '12.50', currency: 'USD', capturedAmount: '5', transaction: 'reversed' },
                    { amount: '3', currency: 'EUR', status: 'pending' },
                    { amount: '4', currency: 'EUR', status: 'released' },
                    { amount: '6', currency: 'EUR', transaction: 'processing' },
                  ],
                  refunds: [{ amount: '2', currency: 'GBP', status: 'processing' }],
                },
              ],
            },
            { currencies: ['EUR'], status: 'failed' },
          ],
        },
        { externalId: 'bob', accounts: [{ currencies: ['EUR'], cards: [{ status: 'suspended' }] }] },
      ],
    });
    expect(res.status).toBe(201);
    const [alice, bob] = res.body.customers;
    expect(alice.accounts.map((a: { status: string }) => a.status)).toEqual(['active', 'failed']);
    expect(bob.accounts[0].cards[0]).toEqual({ id: expect.any(String), status: 'suspended' });
    const card = alice.accounts[0].cards[0];
    expect(card.status).toBe('blocked');
    const [bakery, partial, held, released, processing] = card.authorisations;
    expect(bakery).toMatchObject({ status: 'captured', transaction: { status: 'processed' }, refunds: [{ status: 'processed' }] });
    expect(partial).toMatchObject({ status: 'captured', transaction: { status: 'reversed' } });
    expect([held.status, released.status, processing.transaction.status]).toEqual(['pending', 'released', 'processing']);
    expect(card.refunds).toEqual([{ id: expect.any(String), status: 'processing' }]);

    // What was loaded is what the API serves.
    const p = payments(sb);
    const transactions = await p.cardTransactions(card.id);
    const byId = new Map(transactions.map((t) => [t.id, t]));
    expect(byId.get(bakery.refunds[0].id)).toMatchObject({ direction: 'credit', authorisationId: bakery.id, amount: '5', merchant: { name: 'Bakery' } });
    expect(byId.get(partial.transaction.id)).toMatchObject({ direction: 'debit', amount: '5', merchantAmount: '5.43', status: 'reversed' });
    expect(byId.get(card.refunds[0].id)).toMatchObject({ direction: 'credit', currency: 'EUR', merchantCurrency: 'GBP' });
    expect(p.eventsOf(partial.transaction.id).map((e) => e.body.status)).toEqual(['processing', 'processed', 'reversing', 'reversed']);
    // The blocked card's hold waits its 30 days; the processing debit and refund settle a second later.
    await p.advance(1_000);
    expect(byId.size).toBe(5);
    expect((await p.cardTransactions(card.id)).every((t) => t.status !== 'processing')).toBe(true);
    await p.advance(29 * 86_400_000);
    expect((await p.authorisation(held.id)).status).toBe('pending');
    await p.advance(86_400_000);
    expect((await p.authorisation(held.id)).status).toBe('released');
  });

  it('refuses payments a seed cannot hold, naming each place, and loads nothing', async () => {
    const sb = createTestSandbox();
    const res = await seed(sb, {
      customers: [
        {
          externalId: 'x',
          accounts: [
            {
              currencies: ['EUR'],
              cards: [
                { status: 'issuing', refunds: [{ amount: '1', currency: 'EUR' }] },
                {
                  authorisations: [
                    { amount: '1', currency: 'EUR', status: 'pending', transaction: 'processed' },
                    { amount: '1', currency: 'EUR', status: 'released', capturedAmount: '1' },
                    { amount: '1', currency: 'EUR', transaction: 'reversed', refunds: [{ amount: '1', currency: 'EUR' }] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    const at = 'customers[0].accounts[0].cards';
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
      `${at}[0].refunds`,
      `${at}[1].authorisations[0].transaction`,
      `${at}[1].authorisations[1].capturedAmount`,
      `${at}[1].authorisations[2].refunds`,
    ]);
    const transient = await seed(sb, {
      customers: [
        { externalId: 'x', accounts: [{ currencies: ['EUR'], cards: [{ authorisations: [{ amount: '1', currency: 'EUR', transaction: 'reversing' }] }] }] },
      ],
    });
    expect(transient.body.errors).toEqual([{ path: `${at}[0].authorisations[0].transaction`, message: 'must be one of processing, processed, reversed' }]);
    expect((await sb.json('GET', '/v1/customers')).body).toEqual([]);
  });

  it('refuses a payment the services refuse, at its place, and loads nothing', async () => {
    const sb = createTestSandbox();
    const body = (authorisation: unknown) => ({
      customers: [{ externalId: 'x', accounts: [{ currencies: ['EUR'], cards: [{ authorisations: [authorisation] }] }] }],
    });
    const over = await seed(sb, body({ amount: '10', currency: 'EUR', capturedAmount: '11' }));
    expect(over.body.errors).toEqual([
      { path: 'customers[0].accounts[0].cards[0].authorisations[0].capturedAmount', message: expect.stringMatching(/at most the authorised 10 EUR/) },
    ]);
    const zero = await seed(sb, body({ amount: '0', currency: 'EUR' }));
    expect(zero.body.errors).toEqual([{ path: 'customers[0].accounts[0].cards[0].authorisations[0].amount', message: 'must be greater than 0' }]);
    const excess = await seed(
      sb,
      body({
        amount: '10',
        currency: 'EUR',
        refunds: [
          { amount: '6', currency: 'EUR' },
          { amount: '5', currency: 'EUR' },
        ],
      }),
    );
    expect(excess.body.errors[0].path).toBe('customers[0].accounts[0].cards[0].authorisations[0].refunds[1].amount');
    expect((await sb.json('GET', '/v1/customers')).body).toEqual([]);
  });

  it('gives an account the balance it names, which its payments then move, and refuses a bad one or a payment beyond it', async () => {
    const sb = createTestSandbox();
    const world = (balance: unknown, externalId = 'x') => ({
      customers: [{ externalId, accounts: [{ currencies: ['EUR'], balance, cards: [{ authorisations: [{ amount: '30', currency: 'EUR' }] }] }] }],
    });
    const res = await seed(sb, world('100.50'));
    expect(res.status).toBe(201);
    const accountId = res.body.customers[0].accounts[0].id;
    expect((await sb.json('GET', `/_sandbox/simulator/accounts/${accountId}/balance`, { token: false })).body).toEqual({
      balance: '70.5',
      held: '0',
      available: '70.5',
    });
    const at = 'customers[0].accounts[0]';
    expect((await seed(sb, world('-1'))).body.errors).toEqual([
      { path: `${at}.balance`, message: expect.stringMatching(/^must be a decimal string of 0 or more/) },
    ]);
    expect((await seed(sb, world(100))).body.errors).toEqual([{ path: `${at}.balance`, message: 'must be a decimal string such as "100"' }]);
    const short = await seed(sb, world('20', 'y'));
    expect(short.body.errors[0]).toEqual({
      path: `${at}.cards[0].authorisations[0]`,
      message: expect.stringMatching(/^insufficient_funds: insufficient funds: 30 EUR asked, 20 EUR available/),
    });
    expect((await sb.json('GET', '/v1/customers')).body).toHaveLength(1);
  });
});
