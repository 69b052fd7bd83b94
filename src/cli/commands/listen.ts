/**
 * `listen --forward-to <url> [--types …]`, as `stripe listen` (docs/webhooks.md: Webhooks → The delivery
 * lab): subscribes the URL through the control plane — so it works whatever the credentials and
 * `--verify` mode — prints the verification key's id, then each delivery attempt to it as it
 * happens, and deletes the subscription when it stops (Ctrl-C or SIGTERM). A reset of the sandbox
 * deletes every subscription, and a restored snapshot may hold another world's: listen hears of
 * either on the request journal's stream (`cleared`) and, if its subscription is gone, subscribes
 * again with the same URL and types.
 */
import { WEBHOOK_TYPES, type WebhookType } from '../../domain/outbox.js';
import { ApiError } from '../../client/operations.js';
import type { StreamedAttempt, Webhook } from '../../client/control.generated.js';
import type { CommandContext } from '../client.js';
import { command } from '../command.js';
import { answerLine, faultTag, outcome } from './attempts.js';

export interface ListenOptions {
  forwardTo: string;
  /** Webhook types to subscribe to; all of them when absent. */
  types?: string[] | undefined;
}

/** Runs until `signal` aborts or the sandbox stops; `onReady` runs once the subscription exists. */
export async function listen({ client, io, json }: CommandContext, options: ListenOptions, signal: AbortSignal, onReady?: () => void): Promise<void> {
  const c = io.color;
  const following = new AbortController();
  const stop = () => following.abort();
  signal.addEventListener('abort', stop, { once: true });
  let hook: Webhook | undefined;
  let failure: unknown;
  // Attempts that arrive before the subscription's id is known wait for it.
  const early: StreamedAttempt[] = [];

  const print = (a: StreamedAttempt) => {
    if (a.webhookId !== hook!.id) return;
    if (json) return io.json(a, true);
    const tag = faultTag(io, a);
    const next = a.paused ? c.yellow('  paused') : a.nextAttemptAt ? c.dim(`  retry at ${a.nextAttemptAt}`) : '';
    io.out(
      `${c.dim(a.at)}  ${c.bold(a.type ?? '')}  ${a.entityId ?? ''}  → ${outcome(io, a)}  ${c.dim(`${a.durationMs}ms`)}${tag ? `  ${tag}` : ''}${next}  ${c.dim(`event ${a.eventId}`)}`,
    );
    const answer = answerLine(a);
    if (answer && a.statusCode !== undefined && (a.statusCode < 200 || a.statusCode >= 300)) io.out(`    ${c.dim(`answered ${answer}`)}`);
  };

  const put = async () => (hook = await client.saveWebhook({ callbackUrl: options.forwardTo, types: (options.types ?? [...WEBHOOK_TYPES]) as WebhookType[] }));
  const resubscribe = async () => {
    try {
      const gone = hook!.id;
      // A restored snapshot may hold the subscription still; a reset takes it.
      if ((await client.getWebhooks()).some((h) => h.id === gone))
        return io.err(c.dim(`The sandbox was restored: webhook ${gone} is in it still; forwarding goes on`));
      await put();
      io.err(`${c.yellow('The sandbox was reset or restored')}: webhook ${gone} went with it; forwarding again as webhook ${hook!.id}`);
    } catch (error) {
      failure = error;
      stop();
    }
  };
  const subscribe = async () => {
    try {
      const created = await put();
      // A reset or a restore may delete the subscription: the journal's stream says when.
      await new Promise<void>((opened, failed) => {
        client
          .follow('streamRequests', {
            signal: following.signal,
            onMessage: (message) => {
              if (message.event === 'cleared') void resubscribe();
            },
            onOpen: opened,
          })
          .catch(failed);
      });
      const { keyId } = await client.getWebhookVerificationKey();
      io.err(`${c.green('Ready!')} Forwarding ${created.types.join(', ')} to ${c.bold(created.callbackUrl)} (webhook ${created.id})`);
      io.err(`Verify signatures with the key ${c.bold(keyId)} (GET /v1/webhooks/verification-key). Ctrl-C to stop.`);
      for (const a of early.splice(0)) print(a);
      onReady?.();
    } catch (error) {
      failure = error;
      stop();
    }
  };

  let subscribing: Promise<void> | undefined;
  await client.follow('streamEvents', undefined, {
    signal: following.signal,
    onMessage: (message) => {
      if (message.event !== 'attempt') return;
      const attempt = JSON.parse(message.data) as StreamedAttempt;
      if (hook) print(attempt);
      else early.push(attempt);
    },
    // Following first, then subscribing: no attempt to the new subscription can be missed.
    onOpen: () => void (subscribing = subscribe()),
  });
  await subscribing;
  signal.removeEventListener('abort', stop);
  if (failure) throw failure;
  if (!signal.aborted) {
    io.err(c.dim('the sandbox closed the stream (it stopped)'));
    return;
  }
  if (!hook) return;
  try {
    await client.deleteWebhook(hook.id);
    io.err(c.dim(`deleted webhook ${hook.id}`));
  } catch (error) {
    // Someone deleted it already (or reset the sandbox): nothing is left to clean up.
    if (!(error instanceof ApiError && error.code === 'webhook_not_found')) throw error;
  }
}

export const listenCommand = command<{ forwardTo: string; types?: string[] }>({
  name: 'listen',
  description: 'Subscribe a URL, print each delivery to it live, and unsubscribe on Ctrl-C (like stripe listen)',
  examples: [
    'listen --forward-to http://localhost:3000/webhooks',
    'listen --forward-to http://localhost:3000/webhooks --types card.updated,transaction.updated',
  ],
  options: [
    { flags: '--forward-to <url>', description: 'where to send the webhooks', required: true },
    {
      flags: '--types <types>',
      description: 'comma-separated webhook types (default: all)',
      parse: (raw) =>
        raw
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
    },
  ],
  run: (flags) => (ctx) => {
    const abort = new AbortController();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());
    return listen(ctx, { forwardTo: flags.forwardTo, types: flags.types }, abort.signal);
  },
});
