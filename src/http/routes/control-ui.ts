/**
 * /_sandbox/ui/ (docs/inspector.md: The inspector): the inspector's static files — its page, script, style and
 * icon — built by `npm run build` into dist/ui. Nothing is read at start: each file is read from
 * disk when first asked for, then kept in memory. The files are served without the admin token:
 * they hold no data, and the page asks for the token before it calls the control plane. The page
 * may load nothing from elsewhere (Content-Security-Policy), so it works offline.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context, Hono } from 'hono';
import { SandboxError } from '../../domain/errors.js';
import { packagePath } from '../../kernel/paths.js';
import type { AppEnv } from '../env.js';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

/** A name the build writes: letters, digits, dots and dashes, with a known extension; nothing else is looked up. */
const ASSET = /^[a-z0-9][a-z0-9.-]{0,63}\.(html|js|css|svg)$/;

const HEADERS = {
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

interface Asset {
  body: Uint8Array;
  type: string;
}

/** `dir` holds the built files (dist/ui unless a test gives another). */
export function controlUiRoutes(control: Hono<AppEnv>, dir?: string): void {
  const cache = new Map<string, Asset>();

  const load = async (name: string): Promise<Asset | undefined> => {
    const hit = cache.get(name);
    if (hit) return hit;
    const extension = ASSET.exec(name)?.[1];
    if (!extension) return undefined;
    let body: Buffer;
    try {
      body = await readFile(join(dir ?? packagePath('dist', 'ui'), name));
    } catch {
      return undefined;
    }
    const asset = { body: new Uint8Array(body), type: TYPES[extension]! };
    cache.set(name, asset);
    return asset;
  };

  const serve = async (c: Context<AppEnv>, name: string) => {
    const asset = await load(name === '' ? 'index.html' : name);
    if (!asset) {
      const why = name === '' ? "the inspector's files are not built: run `npm run build`" : `no file ${name} in the inspector`;
      throw new SandboxError('route_not_found', `${why} (GET ${c.req.path})`);
    }
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, { ...HEADERS, 'Content-Type': asset.type });
  };

  // Asset URLs in the page are absolute, so the page works with or without the trailing slash.
  control.get('/ui', (c) => serve(c, ''));
  control.get('/ui/', (c) => serve(c, ''));
  control.get('/ui/:file', (c) => serve(c, c.req.param('file')));
}
