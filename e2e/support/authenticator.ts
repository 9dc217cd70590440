import { generate } from 'otplib';

const STEP_MS = 30_000;

/**
 * The operator's authenticator app, for a secret read once enrolment shows it. The dashboard accepts each time step
 * once, and a code one step early, as from a phone whose clock runs up to 30 s fast
 * (src/server/dashboard/second-factor.ts). So each code is from the step after the last one given: the current
 * step, else the next, and only when both are spent does it wait for the next step to begin.
 */
export function authenticator(secret: () => string): () => Promise<string> {
  let lastStep = Number.NEGATIVE_INFINITY;
  return async function nextCode() {
    for (;;) {
      const now = Math.floor(Date.now() / STEP_MS);
      const step = Math.max(now, lastStep + 1);
      if (step <= now + 1) {
        lastStep = step;
        return generate({ secret: secret(), epoch: (step * STEP_MS) / 1000 });
      }
      await new Promise((resolve) => setTimeout(resolve, (now + 1) * STEP_MS - Date.now() + 500));
    }
  };
}
