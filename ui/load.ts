/** Reading from the control plane inside a component: the answer, the failure, and a way to ask again. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Calls `load` whenever a dependency changes; an answer that arrives after a newer question is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const asked = useRef(0);
  const [again, setAgain] = useState(0);
  // The caller names what the load depends on.
  useEffect(() => {
    const n = ++asked.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => n === asked.current && setState({ data, loading: false }),
      (error: unknown) => n === asked.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [...deps, again]);
  const reload = useCallback(() => setAgain((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** `value`, but only once it has stopped changing for `ms`: for views that re-read on every event. */
export function useSettled<T>(value: T, ms = 200): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
