// Must NOT type-check (src/client/types.e2e.test.ts): each line marked "wrong" gets a field wrong,
// and the client's types, generated from /openapi.json, refuse it.
import { createSandbox } from 'card-sandbox';

const { client } = await createSandbox();
await client.createCustomer({ chainId: 'eip155:11155111:0x0000000000000000000000000000000000000001', externalID: 'alice' }); // wrong: externalId
const card = await client.getCard('5d2c9a4e-1111-4222-8333-444455556666');
console.log(card.pan); // wrong: the card has a maskedPan, never a pan
await client.simulateCardAuthorisation(card.id, { amount: 12.5, currency: 'USD' }); // wrong: amount is a decimal string
await client.createCustomerAccount(card.accountId, { type: 'card_account', currencies: 'EUR' }); // wrong: currencies is a list
