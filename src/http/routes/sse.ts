/**
 * Answering with a Server-Sent Events stream (WHATWG HTML §9.2) on the control plane: a comment
 * line first, so that clients see the stream open before the first message; a heartbeat comment
 * every 15 s; and the caller's subscription ended when the client goes away.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { AppEnv } from '../env.js';
import { responseHeader } from '../openapi.js';

/** What a stream's answer declares beside its messages: the header streamSSE sets. */
export const STREAM_HEADERS = { 'Cache-Control': responseHeader('`no-cache`: each message is read as it comes', { type: 'string' }, true) };

const HEARTBEAT_MS = 15_000;

/** Sends one message: `event: <event>`, `id: <id>`, the data as JSON. */
type SendMessage = (event: string, id: string, data: unknown) => void;

/** `subscribe` starts listening with `send` and returns how to stop. */
export function sseStream(c: Context<AppEnv>, subscribe: (send: SendMessage) => () => void): Response {
  return streamSSE(c, async (stream: SSEStreamingApi) => {
    const unsubscribe = subscribe((event, id, data) => void stream.writeSSE({ event, id, data: JSON.stringify(data) }));
    await stream.write(': connected\n\n');
    await new Promise<void>((resolve) => {
      const heartbeat = setInterval(() => void stream.write(': heartbeat\n\n'), HEARTBEAT_MS);
      stream.onAbort(() => {
        clearInterval(heartbeat);
        unsubscribe();
        resolve();
      });
    });
  });
}
