/**
 * A parity run (docs/parity.md): the journey, step by step, against both services at once — each
 * step sent to the upstream and to the sandbox side by side, polled on each where it waits for a
 * state, and its two answers compared before the next step starts.
 */
import { compareAnswers } from './compare.js';
import type { Difference } from './difference.js';
import { poll, POLL_LIMIT_MS } from './poll.js';
import { CannotRun, type Received } from './side.js';
import type { SideRun } from './side-run.js';
import { compareTracks, type TrackRecord } from './states.js';
import { operationOf, type Step } from './step.js';

/** What one side did in one step. */
export interface SideResult {
  answer: Received;
  tracks: TrackRecord[];
}

export interface StepResult {
  step: Step;
  upstream: SideResult;
  local: SideResult;
  differences: Difference[];
  startedAt: Date;
  /** From the step's start to both sides' last reading, ms. */
  ms: number;
}

async function runSide(run: SideRun, step: Step, pollLimitMs: number, signal?: AbortSignal): Promise<SideResult> {
  const answer = await run.execute(step);
  const polled = step.poll !== undefined && answer.status !== undefined && answer.status < 300;
  return { answer, tracks: polled ? await poll(run, step.poll!, answer.body, pollLimitMs, signal) : [] };
}

/** The differences between the two sides' results of a step: their answers, then what each went through after it. */
export function differencesOf(upstream: SideResult, local: SideResult, labels: { upstream: SideRun; local: SideRun }): Difference[] {
  const differences = compareAnswers(upstream.answer, local.answer, { upstream: labels.upstream.labelOf, local: labels.local.labelOf });
  for (const [i, track] of upstream.tracks.entries()) {
    const other = local.tracks[i];
    if (other !== undefined) differences.push(...compareTracks(track, other));
  }
  return differences;
}

export interface RunOptions {
  journey: readonly Step[];
  upstream: SideRun;
  local: SideRun;
  pollLimitMs?: number;
  /** Called as each step is compared. */
  onStep?: (result: StepResult) => void;
  /** Once aborted, no step starts and polling stops: the run ends with the steps done so far. */
  signal?: AbortSignal;
}

/**
 * The first signed request refused for its signature means the key or its id is wrong: every
 * signed step after it would be refused too, so the run stops there, naming the cause.
 */
function checkSignature(step: Step, answer: Received): void {
  const code = (answer.body as { code?: unknown } | undefined)?.code;
  if (answer.status === undefined || answer.status < 400 || typeof code !== 'string' || !/signature|signing/.test(code)) return;
  const detail = (answer.body as { detail?: unknown }).detail;
  throw new CannotRun(
    `the upstream refused the first signed request (${step.id}: ${operationOf(step.operationId).method} ${operationOf(step.operationId).path}) with ${answer.status} ${code}${typeof detail === 'string' ? `: ${detail}` : ''}; check --signing-key and --signing-key-id`,
  );
}

export async function runJourney({ journey, upstream, local, pollLimitMs = POLL_LIMIT_MS, onStep, signal }: RunOptions): Promise<StepResult[]> {
  const results: StepResult[] = [];
  let signed = false;
  for (const step of journey) {
    if (signal?.aborted) break;
    const startedAt = new Date();
    const started = performance.now();
    const [u, l] = await Promise.all([runSide(upstream, step, pollLimitMs, signal), runSide(local, step, pollLimitMs, signal)]);
    if (!signed && !operationOf(step.operationId).path.startsWith('/v1/auth/')) {
      signed = true;
      checkSignature(step, u.answer);
    }
    const result = { step, upstream: u, local: l, differences: differencesOf(u, l, { upstream, local }), startedAt, ms: performance.now() - started };
    results.push(result);
    onStep?.(result);
  }
  return results;
}
