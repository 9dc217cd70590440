import { describe, expect, it, vi } from 'vitest';
import { startJobs } from './jobs';

describe('background jobs', () => {
  it('stop() tells the runs in progress to end early and waits for them to end', async () => {
    let stop: AbortSignal | undefined;
    let ended = false;
    const jobs = startJobs(
      [
        {
          name: 'backlog',
          intervalMs: 60_000,
          async run(signal) {
            stop = signal;
            // A run with more work than a shutdown may wait for: it ends only when told to.
            await new Promise((resolve) => signal?.addEventListener('abort', resolve));
            ended = true;
          },
        },
      ],
      { error: () => {} },
    );
    await vi.waitFor(() => expect(stop).toBeDefined());
    expect(stop?.aborted).toBe(false);
    await jobs.stop();
    expect(stop?.aborted).toBe(true);
    expect(ended).toBe(true);
  });
});
