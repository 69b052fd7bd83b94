/**
 * Following /_sandbox/events/stream in-process, as the CLI does, for tests: the messages parsed,
 * and `next(n)` to wait for the first `n` and hang up. Not shipped.
 */
import { createClient } from '../cli/client.js';
import type { TestSandbox } from './harness.js';

export interface StreamedMessage {
  event: string;
  id: string | undefined;
  data: any;
}

/** Opens the SSE stream in-process; `next(n)` resolves with the next `n` messages, then hangs up. */
export async function openStream(sb: TestSandbox, query = '') {
  const client = createClient({ url: 'http://127.0.0.1:4242' }, (input, init) => Promise.resolve(sb.app.request(input, init)));
  const abort = new AbortController();
  const messages: StreamedMessage[] = [];
  let wanted = Infinity;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const following = client.follow('streamEvents', Object.fromEntries(new URLSearchParams(query)), {
    signal: abort.signal,
    onMessage: (m) => {
      messages.push({ event: m.event, id: m.id, data: JSON.parse(m.data) });
      if (messages.length >= wanted) done();
    },
    onOpen: opened,
  });
  // The stream has subscribed once the sandbox accepted it: nothing that happens after is missed.
  await open;
  return {
    following,
    async next(count: number) {
      wanted = count;
      if (messages.length < count) await finished;
      abort.abort();
      await following;
      return messages;
    },
  };
}
