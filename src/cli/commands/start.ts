/**
 * `card-sandbox start`: builds the sandbox from the configuration (every option of config/, as a
 * flag or its environment variable), listens, prints the banner, and shuts down cleanly on SIGTERM,
 * Ctrl-C or when the npm script that ran it stops. The sandbox itself is start-sandbox.ts, loaded
 * when the command runs.
 */
import { Option } from 'commander';
import { ConfigError, OPTIONS, resolveConfig, type Config } from '../../config/index.js';
import type { RunningSandbox } from '../../server.js';
import { command, UsageError } from '../command.js';
import { recordRunning } from '../run-files.js';

/** Each option's commander attribute (`--api-key` → apiKey) and the key of Config it sets. */
const CONFIG_KEYS = new Map<string, keyof Config>(OPTIONS.map((spec) => [new Option(spec.flag).attributeName(), spec.key]));

export const startCommand = command({
  name: 'start',
  description: 'Start the sandbox (API on /v1, control plane on /_sandbox)',
  examples: ['start', 'start --port 5000 --verify strict --db ./sandbox.db', 'start --clock 2026-01-01T00:00:00Z --seed fixtures/demo.json'],
  helpAfter: `\n\nEvery flag can also be set with its environment variable (flags win):\n${OPTIONS.map((o) => `  ${o.env.padEnd(30)} ${o.flag.split(' ')[0]}`).join('\n')}`,
  client: false,
  options: OPTIONS.map((spec) => ({
    flags: spec.flag,
    description: spec.doc,
    ...((spec.defaultText ?? (spec.default !== undefined && spec.default !== false)) && { defaultText: spec.defaultText ?? String(spec.default) }),
  })),
  action: async ({ io, env }, opts) => {
    // Taken first: npm may be stopped while the sandbox starts, and then the parent is already another.
    const parent = process.ppid;
    const flags: Partial<Record<keyof Config, string | boolean>> = {};
    for (const [attribute, value] of Object.entries(opts as Record<string, string | boolean | undefined>)) {
      const key = CONFIG_KEYS.get(attribute);
      if (key && value !== undefined) flags[key] = value;
    }
    let config: Config;
    try {
      config = resolveConfig(flags, env);
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    let forget = () => {};
    const stop = (running: RunningSandbox, signal: string) => {
      io.err(`\n${signal}: shutting down…`);
      void running.close().then(() => {
        forget();
        // 1 when --export-on-exit's file could not be written (server.ts).
        process.exit(running.exitCode);
      });
    };
    // Installed before the ready line is printed: a SIGTERM sent as soon as it is read stops cleanly.
    const { start } = await import('./start-sandbox.js');
    const running = await start(config, io, (listening) => {
      process.once('SIGTERM', () => stop(listening, 'SIGTERM'));
      process.once('SIGINT', () => stop(listening, 'SIGINT'));
      // Recorded once SIGTERM has its handler: whoever finds the file may stop it (`card-sandbox stop`).
      forget = recordRunning(listening.url);
    });
    // Run by an npm script (`npm start`): stopping npm by its pid kills it and its shell but not us,
    // which would keep the port. Once the parent is gone, stop as for SIGTERM.
    if (env.npm_lifecycle_event !== undefined) {
      const watch = setInterval(() => {
        if (process.ppid === parent) return;
        clearInterval(watch);
        stop(running, 'npm stopped');
      }, 250).unref();
    }
  },
});
