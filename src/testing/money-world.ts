/**
 * A world on the money path, seeded: a card with a captured payment (its debit) and a hold, and a
 * second account still pending — what the money path's CLI and MCP tests act on.
 */
import { createTestSandbox } from './harness.js';

/** `debitId`: the captured payment's transaction; `holdId`: the pending authorisation; `pendingAccountId`: an account that may still fail. */
export async function moneyWorld() {
  const sb = createTestSandbox();
  const { body } = await sb.json('POST', '/_sandbox/seed', {
    token: false,
    body: {
      customers: [
        {
          externalId: 'c',
          accounts: [
            {
              currencies: ['EUR'],
              cards: [
                {
                  authorisations: [
                    { amount: '20', currency: 'EUR' },
                    { amount: '9', currency: 'EUR', status: 'pending' },
                  ],
                },
              ],
            },
            { currencies: ['EUR'], status: 'pending' },
          ],
        },
      ],
    },
  });
  const card = body.customers[0].accounts[0].cards[0];
  return {
    sb,
    /** The card as the seed answered it, with its authorisations. */
    card,
    cardId: card.id as string,
    debitId: card.authorisations[0].transaction.id as string,
    holdId: card.authorisations[1].id as string,
    pendingAccountId: body.customers[0].accounts[1].id as string,
    /** The card's account: 20 EUR taken, 9 EUR held. */
    accountId: body.customers[0].accounts[0].id as string,
  };
}
