import { useRef, useState } from 'react';
import { announce } from '../../lib/announce';

/**
 * One button's action outside a `useForm` form (approve, disable, publish, sign out): `busy` while it runs (a second
 * press meanwhile does nothing), its failure as `error` in the words `explain` gives, and on success the sentence the
 * action returns said through the live region. `run` tells whether the action succeeded.
 *
 * Imported from this file, not the kit's index: the index's shared chunk is on the tools pages, whose JS budget has no
 * room; imported directly, the hook rides in the chunk of the screens that use it (the back office's).
 */
export function useAction(explain: (failure: unknown) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      const said = await action();
      if (typeof said === 'string') announce(said);
      return true;
    } catch (failure) {
      setError(explain(failure));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { run, busy, error, fail: setError, clear: () => setError(null) };
}
