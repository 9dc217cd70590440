import { createContext, useContext } from 'react';
import { useParams } from 'wouter';
import { useQuery } from '../../lib/useQuery';
import { lostSession, problem } from './api';

/** Told when a call finds the dashboard session gone, so the app goes back to the sign-in steps. */
export const SessionLostContext = createContext<() => void>(() => {});

export type DashboardData<T> = { data: T | null; error: string | null; loading: boolean; reload: () => void };

/** Loads one screen's data whenever `key` changes (lib/useQuery.ts); a lost session hands over to the sign-in steps. */
export function useDashboardData<T>(load: () => Promise<T>, key: string): DashboardData<T> {
  const onSessionLost = useContext(SessionLostContext);
  const { data, error, loading, reload } = useQuery(key, load, (failure) => {
    if (lostSession(failure)) onSessionLost();
  });
  return {
    data,
    error: error === null ? null : problem(error, 'Could not load this screen. Please try again.'),
    loading,
    reload,
  };
}

/** The id in the address of a screen that shows one record (`/admin/orders/:id`); empty on `/admin/tools/new`. */
export function useRecordId(): string {
  return decodeURIComponent(useParams().id ?? '');
}
