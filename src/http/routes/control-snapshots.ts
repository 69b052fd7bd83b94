/**
 * /_sandbox/snapshots (docs/snapshots.md), for the programme the request names: take a snapshot,
 * list them, drop one, restore one in place, download one as a file — and restore a file, whose
 * route reads its own body, larger than the control plane's others may be.
 */
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { Uuid } from '../../domain/formats.js';
import { SnapshotFile } from '../../snapshots/file.js';
import { MAX_SNAPSHOT_FILE_BYTES } from '../../wire/limits.js';
import { NewSnapshot, SnapshotSummary } from '../../wire/snapshots.js';
import { controlRoute, noContent } from '../control-route.js';
import type { ControlPlane } from '../control-plane.js';
import { jsonResponse, problem } from '../schemas.js';
import { answer } from '../answer.js';
import { responseHeader } from '../openapi.js';

const SnapshotParam = z.object({ id: Uuid });
const tags: [string] = ['Snapshots'];
const notFound = { 404: problem('The programme has no such snapshot') };
const refused = { 400: problem('Not a snapshot file: cut short, corrupt or malformed'), 422: problem('A snapshot file of another version') };

/** A file name made of the snapshot's name: letters, digits, dots, dashes and underscores. */
const fileName = (name: string) => `${name.replace(/[^\w.-]+/g, '-')}.snapshot.json`;

/** POST /snapshots/restore with a snapshot file as its body, which may be larger than the control plane's limit. */
export function controlSnapshotFileRoute(control: ControlPlane, { snapshots }: Deps): void {
  controlRoute(
    control,
    {
      method: 'post',
      path: '/snapshots/restore',
      operationId: 'restoreSnapshotFile',
      summary: 'Put the programme back as a snapshot file holds it; a bad file changes nothing',
      tags,
      rawBody: { description: 'A snapshot file, as GET /_sandbox/snapshots/{id}/file gives it', maxBytes: MAX_SNAPSHOT_FILE_BYTES },
      responses: { 200: jsonResponse(SnapshotSummary), ...refused, 413: problem('Larger than a snapshot file may be (64 MiB)') },
    },
    async (c) => answer(c, await snapshots.restoreFile(c.get('programme'), c.get('rawBody'))),
  );
}

export function controlSnapshotRoutes(control: ControlPlane, { snapshots }: Deps): void {
  controlRoute(
    control,
    {
      method: 'post',
      path: '/snapshots',
      operationId: 'saveSnapshot',
      summary: "Take a snapshot of the programme's whole state and keep it",
      tags,
      body: NewSnapshot,
      responses: {
        201: jsonResponse(SnapshotSummary),
        409: problem('The programme has a snapshot of that name (or id) already'),
        429: problem('Too many snapshots (--max-snapshots)'),
      },
    },
    async (c, { body }) => answer(c, await snapshots.save(c.get('programme'), body.name), 201),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/snapshots',
      operationId: 'listSnapshots',
      summary: "The programme's snapshots, oldest first",
      tags,
      responses: { 200: jsonResponse(z.array(SnapshotSummary)) },
    },
    (c) => answer(c, snapshots.list(c.get('programme'))),
  );
  controlRoute(
    control,
    {
      method: 'delete',
      path: '/snapshots/{id}',
      operationId: 'deleteSnapshot',
      summary: 'Drop a snapshot',
      tags,
      params: SnapshotParam,
      responses: { ...noContent, ...notFound },
    },
    (c, { params }) => {
      snapshots.remove(c.get('programme'), params.id.toLowerCase());
      return c.body(null, 204);
    },
  );
  controlRoute(
    control,
    {
      method: 'post',
      path: '/snapshots/{id}/restore',
      operationId: 'restoreSnapshot',
      summary: 'Put the programme back exactly as the snapshot holds it',
      tags,
      params: SnapshotParam,
      // A snapshot the database kept since an earlier release is read as a file of its version (docs/snapshots.md: Versions of the file).
      responses: { 200: jsonResponse(SnapshotSummary), ...notFound, ...refused },
    },
    async (c, { params }) => answer(c, await snapshots.restore(c.get('programme'), params.id.toLowerCase())),
  );
  controlRoute(
    control,
    {
      method: 'get',
      path: '/snapshots/{id}/file',
      operationId: 'getSnapshotFile',
      summary: 'The snapshot as a portable, versioned file',
      tags,
      params: SnapshotParam,
      responses: {
        200: {
          ...jsonResponse(SnapshotFile),
          headers: {
            'Content-Disposition': responseHeader(
              '`attachment; filename="<name>.snapshot.json"`: the snapshot\'s name, as a file name',
              { type: 'string' },
              true,
            ),
          },
        },
        ...notFound,
      },
    },
    (c, { params }) => {
      const { name, file } = snapshots.file(c.get('programme'), params.id.toLowerCase());
      return c.body(file, 200, { 'Content-Type': 'application/json', 'Content-Disposition': `attachment; filename="${fileName(name)}"` });
    },
  );
}
