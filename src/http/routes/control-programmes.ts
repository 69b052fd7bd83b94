/**
 * /_sandbox/programmes (docs/programmes.md: Parallel test suites): create a programme (its credentials are
 * answered once), or fork one from a snapshot, list them, read one, delete one with everything it owns.
 */
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { PROGRAMME_ID } from '../../domain/programme.js';
import { CreatedProgramme, NewProgramme, ProgrammeSummary } from '../../wire/programmes.js';
import { controlRoute, noContent } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { onBody } from '../errors.js';
import { jsonResponse, problem } from '../schemas.js';
import { answer } from '../answer.js';

const ProgrammeParam = z.object({ id: z.string().regex(PROGRAMME_ID, 'must be "default" or a programme id (a UUID)') });
const tags: [string] = ['Programmes'];
const notFound = { 404: problem('No such programme') };

export function controlProgrammeRoutes(control: ControlPlane, { programmes, snapshots }: Deps): void {
  controlRoute(
    control,
    {
      method: 'post',
      path: '/programmes',
      operationId: 'createProgramme',
      summary: "Create a programme, or fork one from a snapshot's world and clock; its credentials are answered once",
      tags,
      programme: false,
      body: NewProgramme,
      responses: {
        201: jsonResponse(CreatedProgramme),
        404: problem('No snapshot has the id `from` names'),
        422: problem('The snapshot `from` names is a file of a version this sandbox cannot read'),
        429: problem('Too many programmes'),
      },
    },
    async (c, { body: { from, ...input } }) =>
      answer(
        c,
        from === undefined
          ? onBody(() => programmes.create(input))
          : await snapshots.fork(from.toLowerCase(), { name: input.name, holdExpiry: input.holdExpiry, startingBalance: input.startingBalance }),
        201,
      ),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/programmes',
      operationId: 'listProgrammes',
      summary: 'Every programme',
      tags,
      programme: false,
      responses: { 200: jsonResponse(z.array(ProgrammeSummary)) },
    },
    (c) => answer(c, programmes.list()),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/programmes/{id}',
      operationId: 'getProgramme',
      summary: 'One programme',
      tags,
      programme: false,
      params: ProgrammeParam,
      responses: { 200: jsonResponse(ProgrammeSummary), ...notFound },
    },
    (c, { params }) => answer(c, programmes.describe(params.id.toLowerCase())),
  );
  controlRoute(
    control,
    {
      method: 'delete',
      path: '/programmes/{id}',
      operationId: 'deleteProgramme',
      summary: 'Delete a programme and everything it owns',
      tags,
      programme: false,
      params: ProgrammeParam,
      responses: { ...noContent, ...notFound, 409: problem('The default programme cannot be deleted') },
    },
    (c, { params }) => {
      programmes.remove(params.id.toLowerCase());
      return c.body(null, 204);
    },
  );
}
