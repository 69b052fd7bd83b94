// The picture of one trace in docs/tracing.md (docs/tracing.md: What a trace holds), drawn from a
// real one: the built CLI traces to an OTLP/HTTP JSON receiver on loopback while a test's
// `POST /v1/customers`, sent with a traceparent, causes a webhook that a receiver fails three times;
// a `clock advance` sends the retries. The caller's trace is drawn as a waterfall and screenshot
// with Chromium (Debian's, or CARD_SANDBOX_CHROMIUM). `npm run build` first; writes
// docs/screenshots/trace.png.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { chromium } from 'playwright-core';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER = '00f067aa0ba902b7';
const OUT = 'docs/screenshots/trace.png';

/** A loopback server that keeps every request's body, answering with `status(request number)`. */
async function server(status) {
  const bodies = [];
  const s = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status(bodies.length), { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${s.address().port}`, bodies, close: () => new Promise((resolve) => s.close(resolve)) };
}

const until = async (check) => {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const collector = await server(() => 200);
const hooks = await server((n) => (n <= 3 ? 500 : 200));
const child = spawn(process.execPath, ['bin/card-sandbox.cjs', 'start', '--port', '0', '--json', '--clock', '2026-03-01T09:00:00Z'], {
  env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
child.stdout.on('data', (c) => (out += c));
await until(() => out.includes('\n'));
const { url } = JSON.parse(out.split('\n')[0]);
const send = async (method, path, body, headers = {}) => {
  const res = await fetch(`${url}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
  return res.json();
};
const { token } = await send('POST', '/v1/auth/token', { apiKey: '11111111-1111-4111-8111-111111111111', apiSecret: 'sandbox-secret' });
const auth = { Authorization: `Bearer ${token}` };
await send('PUT', '/v1/webhooks', { callbackUrl: `${hooks.url}/hooks`, types: ['customer.updated'] }, auth);
await send(
  'POST',
  '/v1/customers',
  { chainId: 'eip155:11155111:0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', externalId: 'alice' },
  {
    ...auth,
    traceparent: `00-${TRACE}-${CALLER}-01`,
  },
);
await until(() => hooks.bodies.length >= 2);
await send('POST', '/_sandbox/clock/advance', { by: '10s' });
await until(() => hooks.bodies.length >= 4);
child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
await hooks.close();
await collector.close();

const value = (v) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attrs = (list = []) => Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
const spans = collector.bodies
  .flatMap((b) => JSON.parse(b).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)))
  .filter((s) => s.traceId === TRACE)
  .map((s) => ({ ...s, start: Number(s.startTimeUnixNano) / 1e6, end: Number(s.endTimeUnixNano) / 1e6, attributes: attrs(s.attributes) }))
  .sort((a, b) => a.start - b.start);
const t0 = spans[0].start;
const span = Math.max(...spans.map((s) => s.end)) - t0;
const x = (t) => ((t - t0) / span) * 100;
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const rows = spans.map((s) => {
  const a = s.attributes;
  const client = s.kind === 3;
  const failed = s.status?.code === 2;
  const label = client
    ? `${s.name} · attempt ${a['card_sandbox.webhook.attempt']} → ${a['http.response.status_code']}`
    : `${s.name} → ${a['http.response.status_code']}`;
  const detail = client
    ? `sandbox time ${a['card_sandbox.time'].slice(11, 19)} · sent traceparent 00-…-${s.spanId}-01`
    : `child of the caller's span ${CALLER}`;
  const marks = (s.events ?? [])
    .map((e) => {
      const ea = attrs(e.attributes);
      return `<span class="mark" style="left:${x(Number(e.timeUnixNano) / 1e6)}%" title=""></span><span class="note" style="left:${x(Number(e.timeUnixNano) / 1e6)}%">${escape(`${e.name}: ${ea['card_sandbox.resource']} ${ea['card_sandbox.status.to']}`)}</span>`;
    })
    .join('');
  return `<div class="row ${client ? 'client' : 'server'}"><div class="name">${client ? '<span class="indent"></span>' : ''}<b>${client ? 'CLIENT' : 'SERVER'}</b> ${escape(label)}<small>${escape(detail)}</small></div>
    <div class="lane"><span class="bar ${failed ? 'failed' : ''}" style="left:${x(s.start)}%;width:${Math.max(x(s.end) - x(s.start), 0.4)}%"></span>${marks}<span class="ms" style="left:${x(s.end)}%">${(s.end - s.start).toFixed(1)} ms</span></div></div>`;
});

const html = `<!doctype html><meta charset="utf-8"><style>
body { font: 13px system-ui, sans-serif; margin: 0; background: #fff; color: #1b1f24; }
#trace { width: 1100px; padding: 16px 20px; }
h1 { font-size: 15px; margin: 0 0 2px; } .sub { color: #57606a; margin-bottom: 12px; }
.row { display: grid; grid-template-columns: 470px 1fr; border-top: 1px solid #e5e7eb; min-height: 42px; align-items: center; }
.name small { display: block; color: #57606a; font-size: 11px; margin-left: 0; } .client .name small { margin-left: 18px; }
.name b { font-size: 10px; padding: 1px 4px; border-radius: 3px; background: #ddf4ff; color: #0550ae; margin-right: 4px; }
.client .name b { background: #fff8c5; color: #7d4e00; } .indent { display: inline-block; width: 18px; }
.lane { position: relative; height: 42px; margin-right: 70px; }
.bar { position: absolute; top: 14px; height: 14px; border-radius: 3px; background: #54aeff; }
.client .bar { background: #2da44e; } .client .bar.failed { background: #cf222e; }
.mark { position: absolute; top: 10px; width: 2px; height: 22px; background: #8250df; }
.note { position: absolute; top: 30px; font-size: 10px; color: #8250df; white-space: nowrap; margin-left: 4px; }
.ms { position: absolute; top: 13px; margin-left: 6px; font-size: 11px; color: #57606a; white-space: nowrap; }
</style><div id="trace"><h1>Trace ${TRACE}</h1>
<div class="sub">${spans.length} spans from card-sandbox, ${span.toFixed(1)} ms of real time · the receiver failed attempts 1–3; 3 and 4 were sent by <code>clock advance 10s</code></div>
${rows.join('\n')}</div>`;

const browser = await chromium.launch({
  executablePath: process.env.CARD_SANDBOX_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
const page = await browser.newPage({ deviceScaleFactor: 2 });
await page.setContent(html);
await page.locator('#trace').screenshot({ path: OUT });
await browser.close();
console.log(`${OUT}: ${spans.length} spans of trace ${TRACE}`);
