/**
 * Lighthouse runs for `npm run audit`, one at a time, in a worker thread. Lighthouse keeps module-level state (its
 * timing marks, its log), so two runs at once in one module graph fail; each worker thread loads a graph of its own.
 * With `--ci`, two of these measure the pages side by side, each against a Chrome of its own (scripts/audit.ts).
 * Plain JavaScript: a worker thread does not get the TypeScript loader the script runs under.
 *
 * Asked `{ url, flags }`, answers `{ lhr }` or `{ error }`.
 */
import { parentPort } from 'node:worker_threads';
import lighthouse from 'lighthouse';

parentPort?.on('message', async ({ url, flags }) => {
  try {
    const result = await lighthouse(url, flags);
    parentPort?.postMessage({ lhr: result?.lhr });
  } catch (error) {
    parentPort?.postMessage({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
