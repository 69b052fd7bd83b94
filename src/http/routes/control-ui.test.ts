/**
 * The inspector's files at /_sandbox/ui/ (docs/inspector.md: The inspector): read when first asked for, never
 * before, then kept; served with their type and a policy that lets the page load nothing from
 * elsewhere; anything else a 404 problem; and outside the admin token, which the page asks for.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryLog } from '../../kernel/log.js';
import { createTestSandbox } from '../../testing/harness.js';
import type { AppEnv } from '../env.js';
import { problemResponse, toSandboxError } from '../errors.js';
import { controlUiRoutes } from './control-ui.js';

const root = mkdtempSync(join(tmpdir(), 'card-sandbox-ui-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function served(dir: string) {
  const app = new Hono<AppEnv>();
  app.use((c, next) => (c.set('requestId', 'test-request'), next()));
  app.onError((error, c) => problemResponse(c, toSandboxError(error, memoryLog())));
  controlUiRoutes(app, dir);
  return (path: string) => app.request(`http://127.0.0.1:4242${path}`);
}

describe('/_sandbox/ui/', () => {
  it('reads nothing until asked, then serves the page, its script and style with their types and a strict policy', async () => {
    const dir = join(root, 'lazy');
    // The routes exist before the files do: nothing is read when the app is built.
    const get = served(dir);
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>inspector</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'app.css'), 'body{}');
    writeFileSync(join(dir, 'icon.svg'), '<svg/>');

    for (const path of ['/ui', '/ui/']) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<title>inspector</title>');
      const policy = page.headers.get('Content-Security-Policy')!;
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("connect-src 'self'");
      expect(page.headers.get('X-Content-Type-Options')).toBe('nosniff');
    }
    expect((await get('/ui/app.js')).headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect((await get('/ui/app.css')).headers.get('Content-Type')).toBe('text/css; charset=utf-8');
    expect((await get('/ui/icon.svg')).headers.get('Content-Type')).toBe('image/svg+xml');

    // Kept once read.
    rmSync(join(dir, 'app.js'));
    expect(await (await get('/ui/app.js')).text()).toBe('console.log(1)');
  });

  it.each(['/ui/missing.js', '/ui/app.exe', '/ui/..%2Fsecret.js', '/ui/.hidden.js', '/ui/a%00.js', `/ui/${'a'.repeat(80)}.js`])(
    'answers %s with a 404 problem',
    async (path) => {
      const dir = join(root, 'strict');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(root, 'secret.js'), 'secret');
      writeFileSync(join(dir, 'app.exe'), 'nope');
      const res = await served(dir)(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Type')).toBe('application/problem+json');
      expect(await res.json()).toMatchObject({ code: 'route_not_found', detail: expect.stringContaining('no file') });
    },
  );

  it('says how to build the page when it is not built', async () => {
    const res = await served(join(root, 'never-built'))('/ui/');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'route_not_found', detail: expect.stringContaining('npm run build') });
  });

  it('is served without the admin token, which every other control plane route still needs', async () => {
    const sb = createTestSandbox({ adminToken: 'tok' });
    expect((await sb.json('GET', '/_sandbox/ui/missing.js', { token: false })).body).toMatchObject({ status: 404, code: 'route_not_found' });
    expect((await sb.json('GET', '/_sandbox/uix', { token: false })).body).toMatchObject({ status: 401, code: 'not_authorised' });
    expect((await sb.json('GET', '/_sandbox/ui/x/y', { token: false })).body).toMatchObject({ status: 401, code: 'not_authorised' });
  });
});
