import { useCallback, useState } from 'react';
import type { Tool } from '../../../shared/shop';
import { TRIAL_MESSAGES } from '../../../shared/trials';
import { toast } from '../../components/ToastHost';
import { announce } from '../../lib/announce';
import { ApiError } from '../../lib/api';
import { shopApi } from './api';

/**
 * "Try free for N days" (docs/decisions/035-trials.md): starts the signed-in visitor's trial, says so (a toast to
 * see, the live region to hear) and tells the catalogue, whose card then offers the trial no more.
 */
export function useStartTrial(onStarted: (toolId: string) => void) {
  const [startingId, setStartingId] = useState<string | null>(null);
  const start = useCallback(
    (tool: Tool) => {
      setStartingId(tool._id);
      shopApi
        .startTrial({ toolId: tool._id })
        .then(
          (result) => {
            toast.success(result.message);
            announce(result.message);
            onStarted(tool._id);
          },
          (error: unknown) => {
            const message = (error instanceof ApiError && error.serverMessage) || TRIAL_MESSAGES.startFailed;
            toast.error(message);
            announce(message);
          },
        )
        .finally(() => setStartingId(null));
    },
    [onStarted],
  );
  return { startingId, start };
}
