/**
 * The app's router: Hono's own (its SmartRouter, which settles on the TrieRouter for our routes),
 * with what it found for a method and path remembered. The trie is walked again for every request
 * otherwise: 2–7 µs for `GET /v1/customers` among the app's ~430 routes, 7–12 µs for a path with an
 * id, against a map's look-up (docs/benchmarks.md: Where the time goes). A match is a function of
 * the method, the path and the routes alone, and Hono only reads it; the routes cannot change once
 * one was matched (the SmartRouter refuses a route added after).
 */
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Matches remembered at most; all are forgotten when full. */
const MAX_MATCHES = 1000;
/** A longer path is matched each time, so that what is kept stays small. */
const MAX_PATH = 256;

export class RememberingRouter<T> implements Router<T> {
  readonly name = 'RememberingRouter';
  readonly #router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #matches = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH) return this.#router.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#router.match(method, path);
      if (this.#matches.size >= MAX_MATCHES) this.#matches.clear();
      this.#matches.set(key, result);
    }
    return result;
  }
}
