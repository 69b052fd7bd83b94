/** Starts and stops a reference server (reference-server.mjs) in a child process. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ROOT } from './sandbox.mjs';

const SCRIPT = fileURLToPath(new URL('./reference-server.mjs', import.meta.url));

/** `kind` ('node' or 'hono') answering `body` with `contentType` to everything. */
export async function startReference(kind, body, contentType) {
  const child = fork(SCRIPT, [kind], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the ${kind} reference server exited (${code}) before listening`)));
    child.send({ body, contentType });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
