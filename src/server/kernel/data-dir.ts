import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (license keys, password hashes, sealed secrets), backups, tool files, mail
 * and the signing keys: nothing in it is for another account on the machine. Folders are 0700 and files 0600.
 */
const OWNER_ONLY_UMASK = 0o077;
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Everything this process creates from now on is its owner's only. Called first thing by the server and the
 * command line, before the configuration writes secrets or PGlite opens its files (it creates them 0666 under the
 * umask).
 */
export function createOwnerOnlyFiles(): void {
  process.umask(OWNER_ONLY_UMASK);
}

export type DataDirRepair = { dataDir: string; repaired: number; failed: string[] };

/**
 * Takes group and other permissions off DATA_DIR and everything under it (left by an older version, a copy or a
 * restore made under a looser umask). Symbolic links are neither followed nor changed. A missing DATA_DIR is
 * nothing to repair.
 */
export function repairDataDirModes(dataDir: string): DataDirRepair {
  const result: DataDirRepair = { dataDir, repaired: 0, failed: [] };
  const visit = (target: string) => {
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(target);
    } catch {
      return; // gone meanwhile, or DATA_DIR not created yet
    }
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & OWNER_ONLY_UMASK) !== 0) {
      const wanted = (stats.mode & 0o700) | (stats.isDirectory() ? FOLDER_MODE : FILE_MODE);
      try {
        chmodSync(target, wanted);
        result.repaired++;
      } catch {
        result.failed.push(target);
      }
    }
    if (stats.isDirectory()) for (const name of readdirSync(target)) visit(path.join(target, name));
  };
  visit(dataDir);
  return result;
}

/** One line for the server's log: what was repaired, and what could not be (not ours to change). */
export function reportDataDirRepair(
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  { dataDir, repaired, failed }: DataDirRepair,
): void {
  if (repaired === 0 && failed.length === 0) {
    log.info({ dataDir }, 'DATA_DIR is owner-only');
    return;
  }
  log.warn(
    { dataDir, repaired, failed: failed.slice(0, 10) },
    `DATA_DIR permissions repaired: ${repaired} paths made owner-only${failed.length > 0 ? `, ${failed.length} could not be changed` : ''}`,
  );
}
