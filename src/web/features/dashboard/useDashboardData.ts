import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { useParams } from 'wouter';
import { lostSession, problem } from './api';

/** Told when a call finds the dashboard session gone, so the app goes back to the sign-in steps. */
export const SessionLostContext = createContext<() => void>(() => {});

export type DashboardData<T> = { data: T | null; error: string | null; loading: boolean; reload: () => void };

/** Loads one screen's data whenever `key` changes; a lost session hands over to the sign-in steps. */
export function useDashboardData<T>(load: () => Promise<T>, key: string): DashboardData<T> {
  const onSessionLost = useContext(SessionLostContext);
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names everything `load` depends on.
  useEffect(() => {
    let current = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        if (lostSession(failure)) onSessionLost();
        setError(problem(failure, 'Could not load this screen. Please try again.'));
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [key, generation, onSessionLost]);

  return { data, error, loading, reload };
}

/** The id in the address of a screen that shows one record (`/admin/orders/:id`); empty on `/admin/tools/new`. */
export function useRecordId(): string {
  return decodeURIComponent(useParams().id ?? '');
}
