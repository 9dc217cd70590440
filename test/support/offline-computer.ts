import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  OfflineActivation,
  type OfflineCheck,
  offlineStateFile,
  type PublicKey,
} from '../../packages/license-client/src/index';

/**
 * A computer that never goes online, running the reference client (packages/license-client/src/offline.ts): each
 * step is a Node process in a network namespace of its own with no interface up (`unshare -rn`), so nothing it does
 * can reach the shop, and it says so by trying. `daysAhead` moves that process's clock with libfaketime
 * (TOOLCHAIN.md), as a computer whose clock has run on. The state (pending requests, the response in use) lives in
 * its folder, as a tool keeps it between runs.
 */

const FAKETIME_LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';
const run = promisify(execFile);
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Step =
  | { command: 'request'; toolId: string; fingerprint: string; name?: string; requestFile: string }
  | { command: 'activate'; responseFile: string }
  | { command: 'check'; fingerprint: string }
  | { command: 'deactivate' };

/** What a step printed: its result, and whether the shop's address answered it (it must not). */
export type ComputerAnswer = {
  network: 'unreachable' | 'reachable';
  request?: string;
  check?: Omit<Extract<OfflineCheck, { valid: true }>, 'license'> & {
    edition: { id: string; name: string } | null;
    entitlements: readonly string[];
  };
  refusal?: Extract<OfflineCheck, { valid: false }>;
  code?: string;
};

export type OfflineComputer = {
  folder: string;
  run(step: Step, options?: { daysAhead?: number }): Promise<ComputerAnswer>;
};

/** A computer with its own folder, the shop's public keys shipped with the tool, and the address it cannot reach. */
export function offlineComputer(publicKeys: readonly PublicKey[], shopUrl: string): OfflineComputer {
  if (!existsSync(FAKETIME_LIBRARY))
    throw new Error(`libfaketime is not installed (${FAKETIME_LIBRARY}): apt-get install libfaketime`);
  const folder = mkdtempSync(path.join(tmpdir(), 'offline-computer-'));
  let steps = 0;
  return {
    folder,
    async run(step, options = {}) {
      const input = path.join(folder, `step-${++steps}.json`);
      writeFileSync(
        input,
        JSON.stringify({ step, publicKeys, shopUrl, stateFile: path.join(folder, 'state.json') }),
      );
      const clock = path.join(folder, 'faketime');
      writeFileSync(clock, `+${options.daysAhead ?? 0}d`);
      const { stdout } = await run(
        'unshare',
        ['-rn', process.execPath, '--import', tsxLoader, fileURLToPath(import.meta.url), input],
        {
          env: {
            PATH: process.env.PATH ?? '',
            LD_PRELOAD: FAKETIME_LIBRARY,
            FAKETIME_TIMESTAMP_FILE: clock,
            FAKETIME_DONT_FAKE_MONOTONIC: '1',
          },
        },
      ).catch((error: Error & { stderr?: string }) => {
        throw new Error(`the offline computer's step failed: ${error.message}\n${error.stderr ?? ''}`);
      });
      return JSON.parse(stdout) as ComputerAnswer;
    },
  };
}

/** Whether the shop answers from here: a computer without a network gets no answer at all. */
async function networkFrom(shopUrl: string): Promise<ComputerAnswer['network']> {
  try {
    await fetch(`${shopUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
    return 'reachable';
  } catch {
    return 'unreachable';
  }
}

/** One step, in the computer's own process. */
async function runStep(inputFile: string): Promise<ComputerAnswer> {
  const { step, publicKeys, shopUrl, stateFile } = JSON.parse(await readFile(inputFile, 'utf8')) as {
    step: Step;
    publicKeys: PublicKey[];
    shopUrl: string;
    stateFile: string;
  };
  const client = new OfflineActivation({ publicKeys, store: offlineStateFile(stateFile) });
  const network = await networkFrom(shopUrl);
  const described = (check: OfflineCheck): ComputerAnswer => {
    if (!check.valid) return { network, refusal: check };
    const { license, ...rest } = check;
    return { network, check: { ...rest, edition: license.edition, entitlements: license.entitlements } };
  };
  switch (step.command) {
    case 'request': {
      const request = await client.createOfflineRequest(step);
      // Saved as the tool saves it for the buyer to carry: the line as it is.
      writeFileSync(step.requestFile, `${request}\n`);
      return { network, request };
    }
    case 'activate':
      return described(await client.activateOffline(await readFile(step.responseFile, 'utf8')));
    case 'check':
      return described(await client.checkOfflineLicense({ fingerprint: step.fingerprint }));
    case 'deactivate':
      return { network, code: await client.deactivateOffline() };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2];
  if (!input) throw new Error('usage: offline-computer.ts <step.json>');
  process.stdout.write(JSON.stringify(await runStep(input)));
}
