/**
 * Snapshot files (docs/snapshots.md: The file): a programme carried as a file
 * and restored, exactly, into the programme it came from or another; taken as JSON or as its bytes;
 * and bad files refused without changing anything.
 */
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestSandbox } from '../testing/harness.js';
import { snapshotSandbox } from '../testing/snapshots.js';

describe('snapshot files', () => {
  const { made, control, everything, buildWorld } = snapshotSandbox();
  let sb: TestSandbox;
  beforeEach(() => ({ sb } = made));

  it('carries a programme as a file: restored into the programme it came from, or another, exactly', async () => {
    await buildWorld();
    const before = await everything();
    const saved = (await control('POST', '/snapshots', { name: 'golden world' })).body;
    const res = await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="golden-world.snapshot.json"');
    const file = await res.text();
    expect(Buffer.byteLength(file)).toBe(saved.bytes);
    expect(JSON.parse(file)).toMatchObject({
      format: 'card-sandbox snapshot',
      version: 3,
      id: saved.id,
      name: 'golden world',
      createdAt: saved.createdAt,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    await control('POST', '/reset');
    await control('POST', '/clock/advance', { by: '30d' });
    const restored = await sb.json('POST', '/_sandbox/snapshots/restore', { body: file, token: false });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(saved);
    expect(await everything()).toEqual(before);

    const other = (await control('POST', '/programmes', { name: 'other' })).body;
    expect((await sb.json('POST', `/_sandbox/snapshots/restore?programme=${other.id}`, { body: file, token: false })).status).toBe(200);
    expect(await everything(other.id)).toEqual({ ...before, jobs: before.jobs.map((job) => ({ ...job, programmeId: other.id })) });
    // Its credentials are its own still.
    expect((await control('GET', `/programmes/${other.id}`)).body.apiKeys).toEqual([other.apiKey]);
  });

  it('takes a file larger than the control plane’s other bodies (1 MiB)', async () => {
    const customers = Array.from({ length: 250 }, (_, i) => ({ externalId: `c-${i}`, accounts: [{ currencies: ['EUR'], cards: [{}] }] }));
    await control('POST', '/seed', { customers });
    const before = (await control('GET', '/world/counts')).body;
    const saved = (await control('POST', '/snapshots')).body;
    expect(saved.bytes).toBeGreaterThan(1_048_576);
    const file = await (await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false })).text();
    await control('POST', '/reset');
    expect((await sb.json('POST', '/_sandbox/snapshots/restore', { body: file, token: false })).status).toBe(200);
    expect((await control('GET', '/world/counts')).body).toEqual(before);
  });

  it('restores one at a time: those sent during a large restore, of any programme, are answered after it', async () => {
    const customers = Array.from({ length: 250 }, (_, i) => ({ externalId: `c-${i}`, accounts: [{ currencies: ['EUR'], cards: [{}] }] }));
    await control('POST', '/seed', { customers });
    const saved = (await control('POST', '/snapshots')).body;
    const other = (await control('POST', '/programmes', { name: 'other' })).body;
    await control('POST', '/reset');
    const answered: string[] = [];
    const sent = (name: string, request: Promise<{ status: number }>) => request.then(({ status }) => answered.push(`${name} ${status}`));
    // The large restore gives other work turns as it parses and checks; the restores sent after it wait for it all the same.
    await Promise.all([
      sent('large', sb.json('POST', `/_sandbox/snapshots/${saved.id}/restore`, { token: false })),
      sent('missing', sb.json('POST', `/_sandbox/snapshots/${other.id}/restore`, { token: false })),
      sent('not a file', sb.json('POST', `/_sandbox/snapshots/restore?programme=${other.id}`, { body: '{}', token: false })),
    ]);
    expect(answered[0]).toBe('large 200');
    expect(answered.slice(1).sort()).toEqual(['missing 404', 'not a file 400']);
    expect((await control('GET', '/world/counts')).body.customers).toBe(250);
  });

  it('takes the file as its bytes, application/octet-stream, as its document declares it', async () => {
    await control('POST', '/seed', { customers: [{ externalId: 'c-1', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] });
    const before = (await control('GET', '/world/counts')).body;
    const saved = (await control('POST', '/snapshots')).body;
    const file = await (await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false })).text();
    await control('POST', '/reset');
    const restored = await sb.json('POST', '/_sandbox/snapshots/restore', {
      body: file,
      headers: { 'Content-Type': 'application/octet-stream' },
      token: false,
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toEqual(saved);
    expect((await control('GET', '/world/counts')).body).toEqual(before);
    const doc = (await sb.json('GET', '/_sandbox/openapi.json', { token: false })).body;
    expect(Object.keys(doc.paths['/_sandbox/snapshots/restore'].post.requestBody.content)).toEqual(['application/octet-stream']);
  });

  describe('a bad file', () => {
    /** The file with its state changed and its digest made to match, as someone who meant it would. */
    const mended = (file: string, change: (state: any) => void) => {
      const json = JSON.parse(file);
      change(json.state);
      json.sha256 = createHash('sha256').update(JSON.stringify(json.state)).digest('hex');
      return JSON.stringify(json);
    };

    it.each<[string, (file: string) => string, number, string, RegExp, string[]?]>([
      ['an empty body', () => '', 400, 'invalid_snapshot', /the body is empty/],
      ['not JSON', () => 'snapshot', 400, 'invalid_snapshot', /not JSON \(cut short or corrupt\?\)/],
      ['a file cut short', (file) => file.slice(0, Math.floor(file.length / 2)), 400, 'invalid_snapshot', /not JSON \(cut short or corrupt\?\)/],
      [
        'a digit changed',
        (file) => file.replace(/"now":"(\d{4})/, (_, year: string) => `"now":"${Number(year) + 1}`),
        400,
        'invalid_snapshot',
        /corrupt: its state does not match its sha256/,
      ],
      ['another kind of JSON', () => JSON.stringify({ customers: [] }), 400, 'invalid_snapshot', /not a snapshot file/],
      [
        'another version of the format',
        (file) => file.replace('"version":3', '"version":4'),
        422,
        'snapshot_version_unsupported',
        /a version 4 snapshot \(written by card-sandbox [^)]+\); card-sandbox \S+ reads versions 1, 2, 3 and writes version 3/,
      ],
      ['a state without its clock', (file) => mended(file, (state) => delete state.clock), 400, 'invalid_snapshot', /invalid at state\.clock/, ['state.clock']],
      [
        'a card in no status there is',
        (file) => mended(file, (state) => (state.world.cards[0].status = 'lost')),
        400,
        'invalid_snapshot',
        /must be one of issuing/,
        ['state.world.cards.0.status'],
      ],
      [
        'a field the format does not have',
        (file) => mended(file, (state) => (state.world.cards[0].colour = 'red')),
        400,
        'invalid_snapshot',
        /state\.world\.cards\.0\.colour: is not a field of cards/,
        ['state.world.cards.0.colour'],
      ],
      [
        'accounts of no customer',
        (file) => mended(file, (state) => (state.world.customers = [])),
        400,
        'invalid_snapshot',
        /state\.world\.accounts\.0\.customerId: names no customer of the snapshot/,
      ],
    ])('%s: refused, and nothing changes', async (_, spoil, status, code, detail, paths) => {
      await buildWorld();
      const saved = (await control('POST', '/snapshots')).body;
      const file = await (await sb.request('GET', `/_sandbox/snapshots/${saved.id}/file`, { token: false })).text();
      await control('POST', '/seed', { customers: [{ externalId: 'since', accounts: [{ currencies: ['EUR'], cards: [{}] }] }] });
      const before = await everything();

      const refused = await sb.json('POST', '/_sandbox/snapshots/restore', { body: spoil(file), token: false });
      expect(refused.status).toBe(status);
      expect(refused.body).toMatchObject({ code, detail: expect.stringMatching(detail) });
      if (paths) expect(refused.body.errors.map((e: { path: string }) => e.path)).toEqual(paths);
      expect(await everything()).toEqual(before);
    });

    it('larger than 64 MiB: refused before it is read', async () => {
      const refused = await sb.json('POST', '/_sandbox/snapshots/restore', {
        body: '{}',
        headers: { 'Content-Length': String(64 * 1_048_576 + 1) },
        token: false,
      });
      expect(refused.status).toBe(413);
      expect(refused.body).toMatchObject({ code: 'payload_too_large', detail: 'the request body is larger than 64 MiB' });
    });

    it('sent as something other than JSON: refused, saying how to send it', async () => {
      const refused = await sb.json('POST', '/_sandbox/snapshots/restore', { body: '{}', headers: { 'Content-Type': 'text/plain' }, token: false });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain('Content-Type: application/octet-stream (or application/json)');
    });
  });
});
