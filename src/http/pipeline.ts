/**
 * A route's checks run as one layer of Hono's chain (docs/benchmarks.md: Where the time goes). Each
 * layer of Hono's costs promises and a turn of the microtask queue, and most requests need few of
 * the checks: a `Stage` that says a request does not need it (`needed`, asked when its turn comes)
 * is passed over, and one that answers or calls `next()` at once adds no promise of its own. What
 * a stage throws is answered by the app's error funnel where it was thrown, as Hono's own chain
 * does, so that the stages around it see the refusal as the answer (the API fault lab's `after`,
 * verification's warnings) and the rest do not run.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

export interface Stage {
  /** Whether the request needs this stage; without it, every request does. */
  needed?: (c: Context<AppEnv>) => boolean;
  run: MiddlewareHandler<AppEnv>;
}

/** What every error in a stage becomes: the app's funnel (errors.ts). */
export type ErrorAnswer = (error: Error, c: Context<AppEnv>) => Response;

export function pipeline(stages: readonly Stage[], onError: ErrorAnswer): MiddlewareHandler<AppEnv> {
  const answered = (c: Context<AppEnv>, res: unknown) => {
    if (res instanceof Response && !c.finalized) c.res = res;
  };
  const failed = (c: Context<AppEnv>, error: unknown) => {
    c.error = error as Error;
    c.res = onError(error as Error, c);
  };
  const from = (i: number, c: Context<AppEnv>, next: () => Promise<void>): Promise<void> | void => {
    for (; i < stages.length; i++) {
      const stage = stages[i]!;
      if (stage.needed && !stage.needed(c)) continue;
      let res: unknown;
      try {
        res = stage.run(c, () => from(i + 1, c, next) ?? Promise.resolve());
      } catch (error) {
        return failed(c, error);
      }
      if (res instanceof Promise)
        return res.then(
          (value: unknown) => answered(c, value),
          (error: unknown) => failed(c, error),
        );
      return answered(c, res);
    }
    return next();
  };
  // Hono awaits what a layer returns, a promise or not.
  return (c, next) => from(0, c, next) as Promise<void>;
}
