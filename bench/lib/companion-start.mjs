/**
 * One start of the test companion as a test file makes it (docs/companion.md): `import('card-sandbox')`,
 * then `createSandbox()` (in this process, in memory, on a free port) to a sandbox that answers,
 * then `close()`. The companion phase (bench/phases/companion.mjs) runs this text with
 * `node --input-type=module --eval` in the root of the build it measures, where `card-sandbox`
 * resolves through that package's own `exports`, as an integrator's import does. It prints one JSON
 * line: each step's CPU time of the process (user + system, every thread) and wall time, in ms.
 */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const now = () => ({ cpuMs: cpuMs(), wallMs: performance.now() });
const between = (from, to) => ({ cpuMs: to.cpuMs - from.cpuMs, wallMs: to.wallMs - from.wallMs });

const started = now();
const { createSandbox } = await import('card-sandbox');
const imported = now();
const sandbox = await createSandbox();
const created = now();
const health = await fetch(`${sandbox.url}/_sandbox/health`);
await health.arrayBuffer();
await sandbox.close();
if (health.status !== 200) throw new Error(`GET /_sandbox/health answered ${health.status}`);
process.stdout.write(`${JSON.stringify({ import: between(started, imported), create: between(imported, created) })}\n`);
