/**
 * The page's state: a few observable values (a signal is a value and who to tell when it changes)
 * and the hook that re-renders a component when one it reads changes. Small enough not to need a
 * library.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export interface Signal<T> {
  readonly value: T;
  set(value: T): void;
  update(change: (value: T) => T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  const set = (next: T) => {
    if (Object.is(next, value)) return;
    value = next;
    for (const listener of [...listeners]) listener(value);
  };
  return {
    get value() {
      return value;
    },
    set,
    update: (change) => set(change(value)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The signal's value, re-rendering the component whenever it changes. */
export function useSignal<T>(s: Signal<T>): T {
  const [, rerender] = useState(0);
  const rendered = useRef(s.value);
  rendered.current = s.value;
  useEffect(() => {
    const off = s.subscribe(() => rerender((n) => n + 1));
    // Effects run after the render: a change in between would otherwise go unseen.
    if (!Object.is(s.value, rendered.current)) rerender((n) => n + 1);
    return off;
  }, [s]);
  return s.value;
}
