/**
 * The MCP server's tools (docs/agents.md: Coding agents): one for each declared CLI command that has
 * a tool, handed in by the `mcp` command — named by the command with `_` for spaces, answering with the command's data, what it
 * prints with --json — then the tools no command has: `webhooks_subscribe` and `journey` (a
 * verified customer with an active account and an issued card in one call).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ControlClient } from '../client/control.js';
import { createWallet } from '../companion/wallet.js';
import { WEBHOOK_TYPES } from '../domain/outbox.js';
import { tool, type Tool } from './tool.js';

/** The tools that are no command's. */
const OWN: Tool[] = [
  {
    name: 'webhooks_subscribe',
    ...tool({
      description: 'Subscribe a URL to webhooks (PUT /v1/webhooks, through the control plane): every event of the types given is delivered to it, signed.',
      input: {
        callbackUrl: z.string().describe('http(s) URL of your receiver'),
        types: z.array(z.enum(WEBHOOK_TYPES)).optional().describe('every event type by default'),
      },
      data: (client, { callbackUrl, types }) => client.saveWebhook({ callbackUrl, types: types ?? [...WEBHOOK_TYPES] }),
    }),
  },
  {
    name: 'journey',
    ...tool({
      description:
        'In one call: a customer with its own new wallet, verified, with an active account and an issued virtual card. Returns the ids and the wallet key.',
      input: { externalId: z.string().optional(), currency: z.string().optional().describe('the account currency, EUR by default') },
      data: (client, { externalId, currency }) => journey(client, externalId, currency),
    }),
  },
];

/** The tools, in the order `tools/list` shows them: the commands', in their order, then the server's own. */
export const toolsOf = (commandTools: readonly Tool[]): Tool[] => [...commandTools, ...OWN];

async function journey(client: ControlClient, externalId = `agent-${randomBytes(4).toString('hex')}`, currency = 'EUR') {
  const walletKey = `0x${randomBytes(32).toString('hex')}`;
  const wallet = createWallet({ privateKey: walletKey });
  const seeded = await client.seedWorld({ customers: [{ externalId, chainId: wallet.chainId, accounts: [{ currencies: [currency], cards: [{}] }] }] });
  const customer = seeded.customers[0]!;
  return {
    customerId: customer.id,
    accountId: customer.accounts[0]!.id,
    cardId: customer.accounts[0]!.cards[0]!.id,
    externalId,
    wallet: { address: wallet.address, chainId: wallet.chainId, privateKey: walletKey },
  };
}
