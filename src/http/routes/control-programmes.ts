/**
 * /_sandbox/programmes (README: Parallel test suites): create a programme (its credentials are
 * answered once), or fork one from a snapshot, list them, read one, delete one with everything it owns.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { Uuid } from '../../domain/formats.js';
import { PROGRAMME_ID } from '../../domain/programme.js';
import type { AppEnv } from '../env.js';
import { jsonOf, parse } from './control-input.js';

const NewProgramme = z
  .strictObject(
    {
      name: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
      clock: z.string({ error: 'must be "now" or an ISO 8601 date-time' }).optional(),
      randomSeed: z.number({ error: 'must be an integer' }).int('must be an integer').min(0).max(2 ** 32 - 1).optional(),
      /** A snapshot's id: the programme starts from its world and clock (docs/snapshots.md). */
      from: Uuid.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, ctx) => {
    if (body.from === undefined) return;
    for (const key of ['clock', 'randomSeed'] as const) {
      if (body[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: 'comes from the snapshot named by from: leave it out' });
    }
  });

/** The body of POST /_sandbox/programmes. */
export type NewProgrammeBody = z.input<typeof NewProgramme>;

const ProgrammeParam = z.object({ id: z.string().regex(PROGRAMME_ID, 'must be "default" or a programme id (a UUID)') });

export function controlProgrammeRoutes(control: Hono<AppEnv>, { programmes, snapshots }: Deps): void {
  control.post('/programmes', async (c) => {
    const { from, ...input } = parse(NewProgramme, jsonOf(c), 'body');
    return c.json(from === undefined ? programmes.create(input) : await snapshots.fork(from.toLowerCase(), input.name), 201);
  });
  control.get('/programmes', (c) => c.json(programmes.list()));
  control.get('/programmes/:id', (c) => c.json(programmes.describe(parse(ProgrammeParam, c.req.param(), 'path parameters').id.toLowerCase())));
  control.delete('/programmes/:id', (c) => {
    programmes.remove(parse(ProgrammeParam, c.req.param(), 'path parameters').id.toLowerCase());
    return c.body(null, 204);
  });
}
