/** The Server-Sent Events reader (WHATWG HTML §9.2.6) shared by the CLI and the inspector. */
import { describe, expect, it } from 'vitest';
import { sseParser, type SseMessage } from './sse.js';

const parse = (chunks: string[]) => {
  const messages: SseMessage[] = [];
  const feed = sseParser((m) => messages.push(m));
  for (const chunk of chunks) feed(chunk);
  return messages;
};

describe('sseParser', () => {
  it('reads event, id and multi-line data, skips comments and messages without data', () => {
    expect(parse([': connected\n\n', 'event: attempt\nid: d/1\ndata: {"a":\ndata: 1}\n\n', 'event: lonely\n\n', 'data:x\n\n'])).toEqual([
      { event: 'attempt', id: 'd/1', data: '{"a":\n1}' },
      { event: 'message', data: 'x' },
    ]);
  });

  it('joins messages split anywhere across chunks, whatever the line ending', () => {
    const text = 'event: request\r\nid: 7\r\ndata: {"x":1}\r\n\r\nevent: event\rdata: 2\r\rdata: 3\n\n';
    const whole = parse([text]);
    expect(whole).toEqual([
      { event: 'request', id: '7', data: '{"x":1}' },
      { event: 'event', data: '2' },
      { event: 'message', data: '3' },
    ]);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual(whole);
  });
});
