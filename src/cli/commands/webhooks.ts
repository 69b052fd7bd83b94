/**
 * `webhooks list|delete`, `webhooks faults set|show|clear`, `webhooks pause|resume` and `deliveries
 * retry|exhaust`: the delivery lab from the terminal (docs/webhooks.md: Webhooks → The delivery lab). The
 * faults take the `--webhook-faults` syntax; the sandbox checks the values.
 */
import type { FaultsAnswer, FaultsView } from '../../client/control.generated.js';
import { faultsSpecBody } from '../../domain/webhook-faults.js';
import { z } from 'zod';
import { ClientUsageError, type Client } from '../client.js';
import { command, group, printed, tool, type OptionDeclaration } from '../command.js';
import type { Io } from '../io.js';

const whose = (webhookId?: string) => (webhookId === undefined ? 'all webhooks' : `webhook ${webhookId}`);

/** `duplicate=0.2, delay=2s-30s, fail=503×3 (1 left)`: the faults in one line. */
export function faultsText(faults: FaultsView): string {
  const parts = Object.entries(faults).map(([key, value]: [string, FaultsView[keyof FaultsView]]) => {
    if (typeof value !== 'object') return `${key}=${String(value)}`;
    return 'times' in value ? `fail=${value.status}×${value.times} (${value.remaining} left)` : `fail=${value.status}@${value.rate}`;
  });
  return parts.length ? parts.join(', ') : 'none';
}

const printFaults = (io: Io, answer: FaultsAnswer, webhookId?: string) => {
  const from = webhookId !== undefined && answer.scope === 'programme' ? io.color.dim(" (the programme's: it has none of its own)") : '';
  io.out(`${io.color.bold(`faults for ${whose(webhookId)}`)}: ${faultsText(answer.faults)}${from}`);
};

export const listWebhooks = printed(
  (client: Client) => client.getWebhooks(),
  ({ io }, hooks) => {
    if (hooks.length === 0) return io.out(io.color.dim('no webhooks'));
    io.table(
      ['ID', 'CALLBACK URL', 'TYPES'],
      hooks.map((h) => [h.id, h.callbackUrl, h.types.join(',')]),
    );
  },
);

export const setFaults = printed(
  (client: Client, spec: string, webhookId?: string) => {
    const { body, errors } = faultsSpecBody(spec);
    if (errors.length) throw new ClientUsageError(`faults: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
    return webhookId === undefined ? client.setWebhookFaults(body) : client.setSubscriptionFaults(webhookId, body);
  },
  ({ io }, answer, _spec, webhookId) => printFaults(io, answer, webhookId),
);

export const showFaults = printed(
  (client: Client, webhookId?: string) => (webhookId === undefined ? client.getWebhookFaults() : client.getSubscriptionFaults(webhookId)),
  ({ io }, answer, webhookId) => printFaults(io, answer, webhookId),
);

export const clearFaults = printed(
  async (client: Client, webhookId?: string) => {
    await (webhookId === undefined ? client.clearWebhookFaults() : client.clearSubscriptionFaults(webhookId));
    return { cleared: true };
  },
  ({ io }, _answer, webhookId) =>
    io.out(`${io.color.green('✓')} no faults for ${whose(webhookId)}${webhookId === undefined ? '' : " of its own: it follows the programme's"}`),
);

export const pauseOrResume = printed(
  (client: Client, action: 'pause' | 'resume', webhookId?: string) =>
    webhookId === undefined ? client[`${action}Webhooks`]() : client[`${action}Subscription`](webhookId),
  ({ io }, answer, action, webhookId) => {
    const n = `${answer.deliveries} pending deliver${answer.deliveries === 1 ? 'y' : 'ies'}`;
    if (action === 'pause') return io.out(`${io.color.yellow('❚❚')} deliveries to ${whose(webhookId)} paused (${n} held); events queue until you resume`);
    const still = answer.paused ? io.color.yellow(' — still held: all webhooks are paused') : '';
    io.out(`${io.color.green('▶')} deliveries to ${whose(webhookId)} resumed (${n} let go)${still}`);
  },
);

export const deleteWebhook = printed(
  async (client: Client, webhookId: string) => {
    await client.deleteWebhook(webhookId);
    return { deleted: webhookId };
  },
  ({ io }, _answer, webhookId) => io.out(`${io.color.green('✓')} webhook ${io.color.bold(webhookId)} deleted: its pending deliveries are not sent`),
);

export const deliveryAction = printed(
  (client: Client, action: 'retry' | 'exhaust', deliveryId: string) => client[`${action}Delivery`](deliveryId),
  ({ io }, answer, action, deliveryId) => {
    if (action === 'retry')
      return io.out(`${io.color.green('✓')} delivery ${io.color.bold(deliveryId)} of event ${answer.eventId}: next attempt now (${answer.callbackUrl})`);
    io.out(
      `${io.color.green('✓')} delivery ${io.color.bold(deliveryId)} of event ${answer.eventId} ${io.status('discarded')} after ${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'}`,
    );
  },
);

type WebhookFlags = { webhook?: string };
const WEBHOOK: OptionDeclaration = { flags: '--webhook <id>', description: "only this webhook (its own faults replace the programme's)" };
const webhookId = z.string().optional();

// The delivery lab (docs/webhooks.md: Webhooks → The delivery lab).
export const webhooksCommands = [
  group('webhooks', 'Webhook subscriptions and the delivery lab: faults, pause and resume'),
  command({
    name: 'webhooks list',
    description: 'List the webhook subscriptions',
    examples: ['webhooks list'],
    isDefault: true,
    run: () => listWebhooks,
    tool: { description: 'The webhook subscriptions.', input: {}, data: (client) => listWebhooks.data(client) },
  }),
  group('webhooks faults', 'Faults on demand for all webhooks, or one (--webhook): duplicates, reordering, delays, failures'),
  command<WebhookFlags>({
    name: 'webhooks faults set',
    args: '<faults>',
    description: 'Set the faults, e.g. duplicate=0.2,reorder=0.2,delay=2s-30s,fail.status=503,fail.times=3,timeout=0.1,seed=7',
    examples: [
      "webhooks faults set 'duplicate=0.2,reorder=0.2,delay=2s-30s'",
      "webhooks faults set 'fail.status=503,fail.times=3' --webhook <id>",
      "webhooks faults set 'fail.status=500,fail.rate=0.3,timeout=0.1,seed=42'",
    ],
    options: [WEBHOOK],
    run: (flags, spec) => (ctx) => setFaults(ctx, spec, flags.webhook),
    tool: tool({
      description: 'Delivery-lab faults for all webhooks or one: duplicate=0.2,reorder=0.2,delay=2s-30s,fail.status=503,fail.times=3,timeout=0.1,seed=7.',
      input: { faults: z.string().describe('the --webhook-faults syntax'), webhookId },
      data: (client, { faults, webhookId }) => setFaults.data(client, faults, webhookId),
    }),
  }),
  command<WebhookFlags>({
    name: 'webhooks faults show',
    description: 'Show the faults in force',
    examples: ['webhooks faults show', 'webhooks faults show --webhook <id> --json'],
    isDefault: true,
    options: [WEBHOOK],
    run: (flags) => (ctx) => showFaults(ctx, flags.webhook),
    tool: tool({
      description: 'The delivery-lab faults in force.',
      input: { webhookId },
      data: (client, { webhookId }) => showFaults.data(client, webhookId),
    }),
  }),
  command<WebhookFlags>({
    name: 'webhooks faults clear',
    description: "No more faults (a webhook goes back to the programme's)",
    examples: ['webhooks faults clear'],
    options: [WEBHOOK],
    run: (flags) => (ctx) => clearFaults(ctx, flags.webhook),
    tool: tool({ description: 'No more delivery-lab faults.', input: { webhookId }, data: (client, { webhookId }) => clearFaults.data(client, webhookId) }),
  }),
  ...(['pause', 'resume'] as const).map((action) =>
    command<WebhookFlags>({
      name: `webhooks ${action}`,
      description:
        action === 'pause' ? "Hold every delivery (or one webhook's): events queue until resume" : 'Let held deliveries go, each at the time it was due',
      examples: [`webhooks ${action}`, `webhooks ${action} --webhook <id>`],
      options: [WEBHOOK],
      run: (flags) => (ctx) => pauseOrResume(ctx, action, flags.webhook),
      tool: tool({
        description:
          action === 'pause'
            ? "Hold every webhook delivery, or one subscription's (webhookId): events queue until resumed."
            : 'Let held deliveries go, each at the time it was due: all of them, or one subscription’s (webhookId).',
        input: { webhookId },
        data: (client, { webhookId }) => pauseOrResume.data(client, action, webhookId),
      }),
    }),
  ),
  command({
    name: 'webhooks delete',
    args: '<webhookId>',
    description: 'Delete a webhook subscription: nothing more is delivered to it, and its pending deliveries are not sent',
    examples: ['webhooks delete <webhookId>'],
    run: (_flags, id) => (ctx) => deleteWebhook(ctx, id),
    tool: tool({
      description: 'Delete a webhook subscription (one webhooks_subscribe made, say): nothing more is delivered to it.',
      input: { webhookId: z.string().describe("the webhook's id") },
      data: (client, { webhookId }) => deleteWebhook.data(client, webhookId),
    }),
  }),
];

const deliveryId = z.string().describe("the delivery's id");

export const deliveriesCommands = [
  group('deliveries', 'One delivery of an event to a webhook (ids from `events show`)'),
  command({
    name: 'deliveries retry',
    args: '<deliveryId>',
    description: 'Make the next attempt now, ahead of its schedule (a discarded delivery gets one more)',
    examples: ['deliveries retry <deliveryId>'],
    run: (_flags, id) => (ctx) => deliveryAction(ctx, 'retry', id),
    tool: tool({
      description: 'Make the next attempt of a delivery now.',
      input: { deliveryId },
      data: (client, { deliveryId }) => deliveryAction.data(client, 'retry', deliveryId),
    }),
  }),
  command({
    name: 'deliveries exhaust',
    args: '<deliveryId>',
    description: 'Discard it now, as its 24 h of retries running out would',
    examples: ['deliveries exhaust <deliveryId>'],
    run: (_flags, id) => (ctx) => deliveryAction(ctx, 'exhaust', id),
    tool: tool({
      description: 'Discard a delivery now, as 24 h of retries running out would.',
      input: { deliveryId },
      data: (client, { deliveryId }) => deliveryAction.data(client, 'exhaust', deliveryId),
    }),
  }),
];
