import { useCallback, useState } from 'react';
import { SHOP_MESSAGES } from '../../../shared/shop';
import { toast } from '../../components/ToastHost';
import { ApiError } from '../../lib/api';
import { shopApi } from './api';

const CREDENTIALS_MESSAGES = SHOP_MESSAGES.credentials;

/**
 * "Get Credentials" on both shop pages (docs/product.md §4, §8): emails the license key and a fresh download
 * link. Tracks which tools are sending so each button shows 'Sending...' on its own.
 */
export function useSendCredentials(): {
  isSending: (toolId: string) => boolean;
  send: (toolId: string) => void;
} {
  const [sending, setSending] = useState<ReadonlySet<string>>(new Set());

  const send = useCallback((toolId: string) => {
    setSending((current) => new Set(current).add(toolId));
    shopApi
      .sendCredentials({ toolId })
      .then(
        (response) => {
          if (response.status === 'success') toast.success(CREDENTIALS_MESSAGES.sent);
          else toast.error(response.message || CREDENTIALS_MESSAGES.failed);
        },
        (error: unknown) => {
          toast.error((error instanceof ApiError && error.serverMessage) || CREDENTIALS_MESSAGES.error);
        },
      )
      .finally(() =>
        setSending((current) => {
          const next = new Set(current);
          next.delete(toolId);
          return next;
        }),
      );
  }, []);

  const isSending = useCallback((toolId: string) => sending.has(toolId), [sending]);
  return { isSending, send };
}
