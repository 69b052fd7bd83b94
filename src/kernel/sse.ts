/**
 * Reading a Server-Sent Events stream (WHATWG HTML §9.2.6): text in, one message per blank line
 * out. Pure, for every client of the control plane's streams: the CLI (`events tail`) and the
 * inspector page, which reads the streams with fetch so that it can send the admin token.
 */

export interface SseMessage {
  event: string;
  id?: string;
  data: string;
}

/** Returns `feed(text)`: call it with each decoded chunk; `onMessage` gets each complete message. */
export function sseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let message: SseMessage = { event: 'message', data: '' };
  let hasData = false;
  return (chunk) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for the next chunk.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) return;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (hasData) onMessage(message);
        message = { event: 'message', data: '' };
        hasData = false;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') message.event = text;
      else if (field === 'id') message.id = text;
      else if (field === 'data') {
        message.data = hasData ? `${message.data}\n${text}` : text;
        hasData = true;
      }
    }
  };
}
