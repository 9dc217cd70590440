import { useState } from 'react';
import { dashboardApi } from './api';

/**
 * Signing the operator out: `busy` from the press on, and `onSignedOut` even when the server could not be reached
 * (the gate then asks to sign in again either way).
 */
export function useSignOut(onSignedOut: () => void) {
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    await dashboardApi.logout().catch(() => undefined);
    onSignedOut();
  };
  return { busy, signOut };
}
