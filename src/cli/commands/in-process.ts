/**
 * A sandbox in this process, in memory on a free loopback port, its log kept to warnings on stderr:
 * for a command that needs a sandbox of its own for as long as it runs (`mcp --start`, `parity` without --url).
 * The server, the store and the services are loaded when one starts, not by the commands that may.
 */
import { defaultConfig, type Config } from '../../config/index.js';
import { quietLog } from '../../kernel/log.js';

export interface InProcessSandbox {
  url: string;
  close(): Promise<void>;
}

export async function startInProcess(overrides: Partial<Config> = {}): Promise<InProcessSandbox> {
  const [{ buildDeps }, { startServer }] = await Promise.all([import('../../deps.js'), import('../../server.js')]);
  const running = await startServer(buildDeps(defaultConfig({ port: 0, ...overrides }), { log: quietLog() }));
  return { url: running.url, close: () => running.close() };
}
