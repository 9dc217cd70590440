import { useCallback, useEffect, useState } from 'react';

/**
 * A list the account page loads once and then replaces with what each action answers: `items` is null while
 * loading, `failed` when the first load did not work.
 */
export function useAccountList<T>(load: () => Promise<T[]>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      setItems(await load());
      setFailed(false);
    } catch (error) {
      console.error('Failed to load an account list', error);
      setFailed(true);
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { items, setItems, failed, reload };
}
