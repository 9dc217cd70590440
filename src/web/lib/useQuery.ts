import { useCallback, useEffect, useRef, useState } from 'react';

export type Query<T> = {
  /** The last answer; kept while a newer question is asked and when it fails. */
  data: T | null;
  /** Why the last question failed (an ApiError for an answer the server gave); null once one succeeds. */
  error: unknown;
  /** A question is on its way. */
  loading: boolean;
  /** Asks again (after an action that changed the answer); settles once the answer is in `data` or `error`. */
  reload: () => Promise<void>;
  /** Replaces the answer with what an action returned, without asking again. */
  setData: (update: (current: T | null) => T | null) => void;
};

/**
 * One read a screen shows (decision 055): asked when the screen mounts and again whenever `key` changes (null: not
 * yet, e.g. until the auth check says someone is signed in), or when `reload` is called; an answer to a question
 * older than the newest is dropped. `onError` is told of each failure as it happens (a 401: the session ended).
 */
export function useQuery<T>(
  key: string | null,
  load: () => Promise<T>,
  onError?: (failure: unknown) => void,
): Query<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: key !== null,
  });
  // The newest `load` and `onError`, so that callers may pass new functions on each render.
  const latest = useRef({ load, onError });
  latest.current = { load, onError };
  const asked = useRef(0);

  const reload = useCallback(() => {
    const question = ++asked.current;
    setState((current) => (current.loading ? current : { ...current, loading: true }));
    return latest.current.load().then(
      (data) => {
        if (question === asked.current) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (question !== asked.current) return;
        setState((current) => ({ data: current.data, error, loading: false }));
        latest.current.onError?.(error);
      },
    );
  }, []);

  useEffect(() => {
    if (key === null) return;
    void reload();
    // Leaving the key (or the screen) drops the answer still on its way.
    return () => {
      asked.current++;
    };
  }, [key, reload]);

  const setData = useCallback(
    (update: (current: T | null) => T | null) =>
      setState((current) => ({ ...current, data: update(current.data) })),
    [],
  );
  return { ...state, reload, setData };
}
