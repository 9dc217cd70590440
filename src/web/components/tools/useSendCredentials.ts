import { useCallback, useState } from 'react';
import type { z } from 'zod';
import { SHOP_MESSAGES, type StatusResponse } from '../../../shared/shop';
import type { sendCredentialsSchema } from '../../../shared/shop-schemas';
import { ApiError, api } from '../../lib/api';
import { toast } from '../ToastHost';

const CREDENTIALS_MESSAGES = SHOP_MESSAGES.credentials;

const sendCredentials = (body: z.input<typeof sendCredentialsSchema>) =>
  api.post<StatusResponse>('/api/send-tool-credentials/', body);

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
    sendCredentials({ toolId })
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
