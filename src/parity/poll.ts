/**
 * Polling after a step (docs/parity.md: States and timing): each tracked resource is read again and
 * again — every 200 ms for the first 5 s, every second after — until its status is one the step
 * waits for, or the bounded wait runs out. Each reading is kept with its time after the action was
 * answered, for the comparison of the two services' sequences and timings.
 */
import type { Track } from './step.js';
import type { SideRun } from './side-run.js';
import type { Observation, TrackRecord } from './states.js';

/** How long polling waits for a resource to settle (docs/parity.md: States and timing). */
export const POLL_LIMIT_MS = 30_000;

const intervalAt = (elapsedMs: number) => (elapsedMs < 5_000 ? 200 : 1_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The tracked resource's state now: its status, `absent` while a list does not hold it yet, or why it could not be read. */
async function stateOf(run: SideRun, track: Track): Promise<string> {
  const answer = await run.read(track.read, track.params);
  if (answer.none !== undefined) return answer.none;
  if (answer.status! >= 300) return `HTTP ${answer.status}`;
  let resource: unknown = answer.body;
  if (track.match) {
    const wanted = run.values.get(track.match.label);
    resource = Array.isArray(answer.body) ? answer.body.find((item) => isRecord(item) && item[track.match!.field] === wanted) : undefined;
    if (resource === undefined) return 'absent';
    if (isRecord(resource) && typeof resource.id === 'string') run.keep(track.label, resource.id);
  }
  return isRecord(resource) && typeof resource.status === 'string' ? resource.status : 'no status';
}

/** Polls `tracks` on one side after an action answered with `body`; the action's own answer is the first reading of the resource it returns. */
export async function poll(run: SideRun, tracks: readonly Track[], body: unknown, limitMs = POLL_LIMIT_MS, signal?: AbortSignal): Promise<TrackRecord[]> {
  const started = performance.now();
  const records = tracks.map((track) => {
    const observations: Observation[] = [];
    if (!track.match && isRecord(body) && body.id === run.values.get(track.label) && typeof body.status === 'string')
      observations.push({ state: body.status, at: 0 });
    return { label: track.label, observations, settled: observations.some((o) => track.settled.includes(o.state)), waitedMs: 0 };
  });
  for (;;) {
    for (const [i, track] of tracks.entries()) {
      const record = records[i]!;
      if (record.settled) continue;
      const state = await stateOf(run, track);
      record.observations.push({ state, at: performance.now() - started });
      record.settled = track.settled.includes(state);
    }
    const elapsed = performance.now() - started;
    if (records.every((r) => r.settled) || elapsed >= limitMs || signal?.aborted) break;
    await sleep(intervalAt(elapsed));
  }
  const waited = performance.now() - started;
  for (const record of records) record.waitedMs = waited;
  return records;
}
