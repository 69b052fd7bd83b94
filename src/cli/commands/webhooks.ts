/**
 * `webhooks list`, `webhooks faults set|show|clear`, `webhooks pause|resume` and `deliveries
 * retry|exhaust`: the delivery lab from the terminal (docs/webhooks.md: Webhooks → The delivery lab). The
 * faults take the `--webhook-faults` syntax; the sandbox checks the values.
 */
import type { FaultsAnswer, FaultsView } from '../../client/control.generated.js';
import { faultsSpecBody } from '../../domain/webhook-faults.js';
import { ClientUsageError, type CommandContext } from '../client.js';
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

export async function listWebhooks({ client, io, json }: CommandContext): Promise<void> {
  const hooks = await client.getWebhooks();
  if (json) return io.json(hooks);
  if (hooks.length === 0) return io.out(io.color.dim('no webhooks'));
  io.table(
    ['ID', 'CALLBACK URL', 'TYPES'],
    hooks.map((h) => [h.id, h.callbackUrl, h.types.join(',')]),
  );
}

export async function setFaults({ client, io, json }: CommandContext, spec: string, webhookId?: string): Promise<void> {
  const { body, errors } = faultsSpecBody(spec);
  if (errors.length) throw new ClientUsageError(`faults: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`);
  const answer = await (webhookId === undefined ? client.setWebhookFaults(body) : client.setSubscriptionFaults(webhookId, body));
  if (json) return io.json(answer);
  printFaults(io, answer, webhookId);
}

export async function showFaults({ client, io, json }: CommandContext, webhookId?: string): Promise<void> {
  const answer = await (webhookId === undefined ? client.getWebhookFaults() : client.getSubscriptionFaults(webhookId));
  if (json) return io.json(answer);
  printFaults(io, answer, webhookId);
}

export async function clearFaults({ client, io, json }: CommandContext, webhookId?: string): Promise<void> {
  await (webhookId === undefined ? client.clearWebhookFaults() : client.clearSubscriptionFaults(webhookId));
  if (json) return io.json({ cleared: true });
  io.out(`${io.color.green('✓')} no faults for ${whose(webhookId)}${webhookId === undefined ? '' : " of its own: it follows the programme's"}`);
}

export async function pauseOrResume({ client, io, json }: CommandContext, action: 'pause' | 'resume', webhookId?: string): Promise<void> {
  const answer = await (webhookId === undefined ? client[`${action}Webhooks`]() : client[`${action}Subscription`](webhookId));
  if (json) return io.json(answer);
  const n = `${answer.deliveries} pending deliver${answer.deliveries === 1 ? 'y' : 'ies'}`;
  if (action === 'pause') return io.out(`${io.color.yellow('❚❚')} deliveries to ${whose(webhookId)} paused (${n} held); events queue until you resume`);
  const still = answer.paused ? io.color.yellow(' — still held: all webhooks are paused') : '';
  io.out(`${io.color.green('▶')} deliveries to ${whose(webhookId)} resumed (${n} let go)${still}`);
}

export async function deliveryAction({ client, io, json }: CommandContext, action: 'retry' | 'exhaust', deliveryId: string): Promise<void> {
  const answer = await client[`${action}Delivery`](deliveryId);
  if (json) return io.json(answer);
  if (action === 'retry')
    return io.out(`${io.color.green('✓')} delivery ${io.color.bold(deliveryId)} of event ${answer.eventId}: next attempt now (${answer.callbackUrl})`);
  io.out(
    `${io.color.green('✓')} delivery ${io.color.bold(deliveryId)} of event ${answer.eventId} ${io.status('discarded')} after ${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'}`,
  );
}
