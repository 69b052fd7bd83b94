/**
 * `stop`: stops the sandbox that `start` left running on this machine — the one `health` would
 * ask, found the same way (--url, --port, CARD_SANDBOX_URL/PORT, the one running) — by signalling
 * its process, which shuts down as on Ctrl-C, and waits until it has. A sandbox in a container is
 * stopped by its engine (`docker stop`).
 */
import { runningSandboxes, type RunFile } from '../run-files.js';
import { UnreachableError } from '../../client/control.js';
import type { CommandContext } from '../client.js';
import { command, PORT_OPTION } from '../command.js';

const WAIT_MS = 10_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The run file of the sandbox at `url`: same port, on this machine. */
const servedAt = (url: string, file: RunFile) => {
  const [a, b] = [new URL(url), new URL(file.url)];
  return a.port === b.port && LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname);
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export async function stop({ client, io, json }: CommandContext): Promise<void> {
  const found = runningSandboxes().find((file) => servedAt(client.url, file));
  if (!found) throw new UnreachableError(client.url, 'no sandbox started on this machine serves it; one in a container stops with `docker stop`');
  process.kill(found.pid, 'SIGTERM');
  const deadline = Date.now() + WAIT_MS;
  while (alive(found.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(found.pid)) throw new UnreachableError(client.url, `process ${found.pid} did not stop within ${WAIT_MS / 1000} s`);
  if (json) return io.json({ stopped: true, url: found.url, pid: found.pid });
  io.out(`${io.color.green('✓')} stopped ${found.url} ${io.color.dim(`(pid ${found.pid})`)}`);
}

export const stopCommand = command({
  name: 'stop',
  description: 'Stop the sandbox `start` left running on this machine (found as health finds it), and wait until it has',
  examples: ['stop', 'stop --port 5000'],
  options: [PORT_OPTION],
  programme: false,
  run: () => stop,
});
