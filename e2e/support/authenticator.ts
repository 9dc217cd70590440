import type { Page } from '@playwright/test';
import { generate } from 'otplib';

const STEP_MS = 30_000;

/** A late code is given only while it has this long left, so typing it in cannot outlast it. */
const LATE_CODE_LEFT_MS = 15_000;

/**
 * The operator's authenticator app, for a secret read once enrolment shows it. The dashboard accepts each time step
 * once, and a code one step late or early, as from a phone whose clock runs up to 30 s slow or fast
 * (src/server/operator/second-factor.ts). So each code is from the step after the last one given: the last step
 * while it has 15 s left, else the current step, else the next, and only when they are spent does it wait for the
 * next step to begin. A journey that needs three codes gets them without waiting.
 */
export function authenticator(secret: () => string): () => Promise<string> {
  let lastStep = Number.NEGATIVE_INFINITY;
  return async function nextCode() {
    for (;;) {
      const now = Math.floor(Date.now() / STEP_MS);
      const lateLeft = (now + 1) * STEP_MS - Date.now();
      const step = Math.max(lateLeft >= LATE_CODE_LEFT_MS ? now - 1 : now, lastStep + 1);
      if (step <= now + 1) {
        lastStep = step;
        return generate({ secret: secret(), epoch: (step * STEP_MS) / 1000 });
      }
      await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 500));
    }
  };
}

/** Chromium's virtual platform authenticator on this page (DevTools protocol), as a phone's screen lock would be. */
export async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
