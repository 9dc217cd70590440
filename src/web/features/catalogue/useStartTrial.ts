import { useCallback, useState } from 'react';
import type { Tool } from '../../../shared/shop';
import { TRIAL_MESSAGES } from '../../../shared/trials';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { catalogueApi } from './api';

/**
 * "Try free for N days" (docs/decisions/035-trials.md): starts the signed-in visitor's trial, says so (a toast, read
 * through the live region) and tells the catalogue, whose card then offers the trial no more.
 */
export function useStartTrial(onStarted: (toolId: string, expiresAt: string) => void) {
  const [startingId, setStartingId] = useState<string | null>(null);
  const start = useCallback(
    (tool: Tool) => {
      setStartingId(tool._id);
      catalogueApi
        .startTrial({ toolId: tool._id })
        .then(
          (result) => {
            toast.success(result.message);
            onStarted(tool._id, result.expiresAt);
          },
          (error: unknown) => {
            const message = (error instanceof ApiError && error.serverMessage) || TRIAL_MESSAGES.startFailed;
            toast.error(message);
          },
        )
        .finally(() => setStartingId(null));
    },
    [onStarted],
  );
  return { startingId, start };
}
