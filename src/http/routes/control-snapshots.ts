/**
 * /_sandbox/snapshots (docs/snapshots.md), for the programme the request names: take a snapshot,
 * list them, drop one, restore one in place, download one as a file — and restore a file, whose
 * route reads its own body, larger than the control plane's others may be.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { Uuid } from '../../domain/formats.js';
import type { AppEnv } from '../env.js';
import { readBody } from '../middleware/body.js';
import { jsonOf, parse } from './control-input.js';

/** The largest snapshot file POST /_sandbox/snapshots/restore takes. */
export const MAX_SNAPSHOT_FILE_BYTES = 64 * 1_048_576;

const NewSnapshot = z.strictObject(
  { name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be a JSON object' : undefined) },
);

const SnapshotParam = z.object({ id: Uuid });

const idOf = (c: Context<AppEnv>) => parse(SnapshotParam, c.req.param(), 'path parameters').id.toLowerCase();

/** A file name made of the snapshot's name: letters, digits, dots, dashes and underscores. */
const fileName = (name: string) => `${name.replace(/[^\w.-]+/g, '-')}.snapshot.json`;

/**
 * POST /snapshots/restore with a snapshot file as its body: added before the control plane reads
 * bodies with its own limit, with `selectProgramme` (which the routes after that limit share).
 */
export function controlSnapshotFileRoute(control: Hono<AppEnv>, { snapshots }: Deps, selectProgramme: MiddlewareHandler<AppEnv>): void {
  control.post('/snapshots/restore', ...readBody(MAX_SNAPSHOT_FILE_BYTES), selectProgramme, async (c) => c.json(await snapshots.restoreFile(c.get('programme'), c.get('rawBody'))));
}

export function controlSnapshotRoutes(control: Hono<AppEnv>, { snapshots }: Deps): void {
  control.post('/snapshots', async (c) => c.json(await snapshots.save(c.get('programme'), parse(NewSnapshot, jsonOf(c), 'body').name), 201));
  control.get('/snapshots', (c) => c.json(snapshots.list(c.get('programme'))));
  control.delete('/snapshots/:id', (c) => {
    snapshots.remove(c.get('programme'), idOf(c));
    return c.body(null, 204);
  });
  control.post('/snapshots/:id/restore', async (c) => c.json(await snapshots.restore(c.get('programme'), idOf(c))));
  control.get('/snapshots/:id/file', (c) => {
    const { name, file } = snapshots.file(c.get('programme'), idOf(c));
    return c.body(file, 200, { 'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="${fileName(name)}"` });
  });
}
