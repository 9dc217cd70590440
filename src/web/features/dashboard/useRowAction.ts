import { useState } from 'react';
import { problem } from './api';

/**
 * The actions of a list's rows (free a device, extend a trial): `busy` names the one running, by a key the caller
 * chooses, and `error` says why the last one failed; each run clears it first.
 */
export function useRowAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    try {
      await action();
    } catch (failure) {
      setError(problem(failure));
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, run };
}
