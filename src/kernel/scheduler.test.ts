/**
 * The scheduler and jobs (docs/control-plane.md: Time travel and the control plane): due work runs in due order at its own due
 * time, work scheduled along the way is picked up, failures are contained, and the real-time tick
 * runs the same code.
 */
import { describe, expect, it, vi } from 'vitest';
import { createClock } from './clock.js';
import { memoryLog } from './log.js';
import { createTestSandbox, T0 } from '../testing/harness.js';
import { HUNG_MS } from '../testing/wait.js';
import { ADVANCE_YIELD_EVERY, createScheduler, createTicker, type DueSource } from './scheduler.js';

const S = 1000;

function setUp() {
  const sandbox = createTestSandbox();
  const { scheduler, jobs } = sandbox.deps.services;
  const { clock, store } = sandbox.deps;
  const ran: { kind: string; subject: string; now: number; clock: number }[] = [];
  const record = (kind: string) => (subject: string, now: number) => void ran.push({ kind, subject, now, clock: clock.now() });
  const schedule = (kind: string, subject: string, dueAt: number) => store.transaction(() => jobs.schedule(kind, subject, dueAt));
  return { sandbox, scheduler, jobs, clock, store, ran, record, schedule };
}

describe('advance (time travel)', () => {
  it('runs every due job in due order, each at its own due time, then lands on the target', async () => {
    const { scheduler, jobs, ran, record, schedule } = setUp();
    jobs.define('capture', record('capture'));
    jobs.define('settle', record('settle'));
    schedule('settle', 'b', T0 + 3 * S);
    schedule('capture', 'a', T0 + 1 * S);
    schedule('capture', 'c', T0 + 10 * S);
    const result = await scheduler.advance(T0 + 5 * S);
    expect(result).toEqual({ now: T0 + 5 * S, ran: 2 });
    expect(ran).toEqual([
      { kind: 'capture', subject: 'a', now: T0 + S, clock: T0 + S },
      { kind: 'settle', subject: 'b', now: T0 + 3 * S, clock: T0 + 3 * S },
    ]);
    expect(jobs.pending().map((j) => j.subjectId)).toEqual(['c']);
  });

  it('lets the event loop in during a long advance, telling how far it has got; nothing once done', async () => {
    const { scheduler, jobs, record, schedule } = setUp();
    jobs.define('k', record('k'));
    const n = 3 * ADVANCE_YIELD_EVERY;
    for (let i = 1; i <= n; i++) schedule('k', `s${i}`, T0 + i * S);
    const seen: ({ to: number; ran: number } | undefined)[] = [];
    // Each runs when the advance gives the event loop a turn, and not before it has started.
    const look = () => seen.push(scheduler.advancing());
    setImmediate(look);
    const advancing = scheduler.advance(T0 + n * S);
    setImmediate(() => setImmediate(look));
    expect(await advancing).toEqual({ now: T0 + n * S, ran: n });
    expect(seen[0]).toEqual({ to: T0 + n * S, ran: ADVANCE_YIELD_EVERY });
    expect(seen[1]).toEqual({ to: T0 + n * S, ran: 2 * ADVANCE_YIELD_EVERY });
    expect(scheduler.advancing()).toBeUndefined();
  });

  it('picks up work that due work schedules, when it falls before the target', async () => {
    const { scheduler, jobs, ran, record, schedule } = setUp();
    jobs.define('step', (subject, now) => {
      record('step')(subject, now);
      jobs.schedule('step', `${subject}+`, now + 2 * S);
    });
    schedule('step', 'x', T0 + S);
    await scheduler.advance(T0 + 6 * S);
    expect(ran.map((r) => [r.subject, r.now - T0])).toEqual([
      ['x', S],
      ['x+', 3 * S],
      ['x++', 5 * S],
    ]);
    expect(jobs.pending().map((j) => j.dueAt - T0)).toEqual([7 * S]);
  });

  it('runs jobs due exactly at the target, and nothing when the target is in the past', async () => {
    const { scheduler, jobs, clock, ran, record, schedule } = setUp();
    jobs.define('k', record('k'));
    schedule('k', 'edge', T0 + 5 * S);
    await scheduler.advance(T0 + 5 * S);
    expect(ran).toHaveLength(1);
    expect(await scheduler.advance(T0)).toEqual({ now: T0 + 5 * S, ran: 0 });
    expect(clock.now()).toBe(T0 + 5 * S);
  });

  it('serialises concurrent advances and never moves the clock backwards', async () => {
    const { scheduler, jobs, clock, ran, record, schedule } = setUp();
    jobs.define('k', record('k'));
    schedule('k', 'a', T0 + 2 * S);
    schedule('k', 'b', T0 + 8 * S);
    const seen: number[] = [];
    const [first, second] = await Promise.all([scheduler.advance(T0 + 10 * S), scheduler.advance(T0 + 4 * S).then((r) => (seen.push(clock.now()), r))]);
    expect(first.now).toBe(T0 + 10 * S);
    expect(second.now).toBe(T0 + 10 * S);
    expect(ran.map((r) => r.subject)).toEqual(['a', 'b']);
    expect(seen).toEqual([T0 + 10 * S]);
  });

  it('runs a failing job once: its changes roll back, it is logged and dropped, the rest run', async () => {
    const { sandbox, scheduler, jobs, ran, record, schedule } = setUp();
    const names = () => sandbox.deps.services.webhooks.list().map((w) => w.callbackUrl);
    jobs.define('boom', () => {
      sandbox.deps.services.webhooks.put({ callbackUrl: 'http://127.0.0.1:9/half-done', types: ['card.updated'] });
      throw new Error('boom');
    });
    jobs.define('k', record('k'));
    schedule('boom', 'a', T0 + S);
    schedule('k', 'b', T0 + 2 * S);
    await scheduler.advance(T0 + 5 * S);
    expect(names()).toEqual([]);
    expect(ran.map((r) => r.subject)).toEqual(['b']);
    expect(jobs.pending()).toEqual([]);
    expect(sandbox.log.lines.some((l) => l.level === 'error' && l.message === 'job boom for a failed')).toBe(true);
  });

  it('drops a job of a kind nobody handles, with a warning', async () => {
    const { sandbox, scheduler, jobs, schedule } = setUp();
    schedule('unknown', 'a', T0 + S);
    await scheduler.advance(T0 + 2 * S);
    expect(jobs.pending()).toEqual([]);
    expect(sandbox.log.lines.some((l) => l.level === 'warn' && l.message.includes('job unknown has no handler'))).toBe(true);
  });

  it('forgets cancelled jobs', async () => {
    const { scheduler, jobs, ran, record, schedule } = setUp();
    jobs.define('k', record('k'));
    schedule('k', 'a', T0 + S);
    schedule('k', 'b', T0 + S);
    jobs.cancel('k', 'a');
    await scheduler.advance(T0 + 2 * S);
    expect(ran.map((r) => r.subject)).toEqual(['b']);
  });

  it('waits for an asynchronous source before moving to the next due time', async () => {
    const clock = createClock({ frozenAt: T0 });
    const scheduler = createScheduler(clock, memoryLog(), createTicker());
    const log: string[] = [];
    const due = [T0 + S, T0 + 2 * S];
    const source: DueSource = {
      name: 'async',
      nextDue: () => due[0],
      async runDue(now) {
        log.push(`start ${now - T0}`);
        await new Promise((r) => setImmediate(r));
        due.shift();
        log.push(`end ${now - T0} at ${clock.now() - T0}`);
        return 1;
      },
    };
    scheduler.add(source);
    expect(await scheduler.advance(T0 + 5 * S)).toEqual({ now: T0 + 5 * S, ran: 2 });
    expect(log).toEqual(['start 1000', 'end 1000 at 1000', 'start 2000', 'end 2000 at 2000']);
  });

  it("lets a source run ahead to just before another source's next item, never past the target", async () => {
    const clock = createClock({ frozenAt: T0 });
    const scheduler = createScheduler(clock, memoryLog(), createTicker());
    const calls: string[] = [];
    const items = (name: string, due: number[]): DueSource => ({
      name,
      nextDue: () => due[0],
      runDue(now, until = now) {
        calls.push(`${name} ${now - T0}..${until - T0}`);
        let n = 0;
        while (due.length > 0 && due[0]! <= until) {
          due.shift();
          n++;
        }
        return n;
      },
    });
    scheduler.add(items('jobs', [T0 + 5 * S]));
    scheduler.add(items('hooks', [T0 + S, T0 + 2 * S, T0 + 7 * S, T0 + 9 * S]));
    expect(await scheduler.advance(T0 + 8 * S)).toEqual({ now: T0 + 8 * S, ran: 4 });
    expect(calls).toEqual(['hooks 1000..4999', 'jobs 5000..6999', 'hooks 7000..8000']);
  });

  it('stops instead of spinning when a source reports due work but runs none', async () => {
    const log = memoryLog();
    const scheduler = createScheduler(createClock({ frozenAt: T0 }), log, createTicker());
    scheduler.add({ name: 'stuck', nextDue: () => T0 + S, runDue: () => 0 });
    expect(await scheduler.advance(T0 + 10 * S)).toEqual({ now: T0 + 10 * S, ran: 0 });
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes('did not run'))).toBe(true);
  });
});

describe('real time', () => {
  it('runs due jobs on its tick once started, and not after stop', async () => {
    const { sandbox, jobs, ran, record, schedule } = setUp();
    const clock = createClock({ offset: 0 });
    const ticker = createTicker();
    const scheduler = createScheduler(clock, sandbox.log, ticker);
    scheduler.add(jobs.source);
    jobs.define('k', record('k'));
    schedule('k', 'now', clock.now());
    scheduler.start();
    await vi.waitFor(() => expect(ran.map((r) => r.subject)).toEqual(['now']), { timeout: HUNG_MS });
    scheduler.stop();
    // Stopped, it is off the ticker (whose timer then stops): nothing ticks it, asked or due.
    expect(ticker.started).toBe(0);
    schedule('k', 'later', clock.now());
    scheduler.kick();
    await new Promise((r) => setImmediate(r));
    expect(ran.map((r) => r.subject)).toEqual(['now']);
  });
});
