import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { repairDataDirModes } from '../kernel/data-dir';
import { createDataSecrets } from '../kernel/data-secrets';
import { keyId } from '../kernel/key-id';
import { lockDataDir } from './lock';

/** How many daily snapshots are kept in DATA_DIR/backups; older ones are deleted after each new one. */
export const BACKUPS_KEPT = 7;
export const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;
const BACKUP_NAME = /^pglite-(\d{8}T\d{6}Z)\.tar\.gz$/;

export const backupDirOf = (dataDir: string) => path.join(dataDir, 'backups');
export const pgliteDirOf = (dataDir: string) => path.join(dataDir, 'pglite');

/** Writes the open embedded database to a file as a gzipped tar of its data directory (DatabaseHandle.snapshot). */
export type Snapshot = (file: string) => Promise<void>;

export type BackupFile = { file: string; takenAt: Date; size: number };

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');

/** The snapshots in DATA_DIR/backups, newest first. */
export async function listBackups(dataDir: string): Promise<BackupFile[]> {
  const dir = backupDirOf(dataDir);
  if (!existsSync(dir)) return [];
  const found: BackupFile[] = [];
  for (const name of await readdir(dir)) {
    const match = BACKUP_NAME.exec(name);
    if (!match?.[1]) continue;
    const iso = match[1].replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
    const file = path.join(dir, name);
    found.push({ file, takenAt: new Date(iso), size: (await stat(file)).size });
  }
  return found.sort((a, b) => +b.takenAt - +a.takenAt);
}

/**
 * Writes a consistent snapshot of the embedded database (see DatabaseHandle.snapshot) as DATA_DIR/backups/pglite-<UTC time>.tar.gz,
 * then keeps only the newest seven. The file appears whole or not at all.
 */
export async function writeBackup(
  snapshot: Snapshot,
  dataDir: string,
  now = new Date(),
): Promise<BackupFile> {
  const dir = backupDirOf(dataDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `pglite-${stamp(now)}.tar.gz`);
  const temporary = `${file}.partial`;
  try {
    await snapshot(temporary);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await rename(temporary, file);
  for (const old of (await listBackups(dataDir)).slice(BACKUPS_KEPT)) await rm(old.file, { force: true });
  return { file, takenAt: now, size: (await stat(file)).size };
}

/** True when the newest snapshot is younger than a day: the daily job has nothing to do. */
export async function backupIsFresh(dataDir: string, now = new Date()): Promise<boolean> {
  const [newest] = await listBackups(dataDir);
  return newest !== undefined && now.getTime() - newest.takenAt.getTime() < BACKUP_INTERVAL_MS;
}

export class RestoreRefusedError extends Error {}

/**
 * Restores a snapshot into DATA_DIR/pglite, which must not exist yet (a fresh DATA_DIR, or the old database moved
 * aside by the operator): a restore never overwrites a database. The lock keeps a running server out meanwhile.
 */
/**
 * The keys a restored database needs beside it: the data key that opens its sealed values, and the keys that sign
 * license files and releases (so that tools already installed keep trusting what the shop signs). Each is a setting
 * or, in development, a file in DATA_DIR (README "Backups").
 */
export type RestoreKeys = {
  dataSecret: { key: Buffer | undefined; previousKeys: Buffer[] };
  licenseSigningKeyPem: string | undefined;
  /** LICENSE_PREVIOUS_PUBLIC_KEYS: after a rotation the snapshot's shop signed with an earlier key. */
  licensePreviousPublicKeyPems: string[];
  releaseSigningKeyPem: string | undefined;
  /** RELEASE_PREVIOUS_PUBLIC_KEYS: after a rotation the snapshot's releases carry an earlier key's id. */
  releasePreviousPublicKeyPems: string[];
};

/** A sealed value of the snapshot (a license key) and whether it holds licenses and signed releases. */
async function snapshotNeeds(archive: Blob) {
  const db = await PGlite.create({ dataDir: 'memory://', loadDataDir: archive });
  try {
    const sealed = await db.query<{ value: string }>(
      'select license_key_sealed as value from licenses where license_key_sealed is not null limit 1',
    );
    const counts = await db.query<{ licenses: number; artifacts: number }>(
      'select (select count(*) from licenses)::int as licenses, (select count(*) from release_artifacts)::int as artifacts',
    );
    // The ids of the keys that signed its releases (a signature not yet made at start is '').
    const signedBy = await db.query<{ kid: string }>(
      "select distinct kid from release_artifacts where signature <> ''",
    );
    // The license key the shop signed with last; a snapshot from before that was recorded names none.
    const licenseKid = await db
      .query<{ kid: string }>('select kid from license_signing_keys order by last_used_at desc limit 1')
      .then((result) => result.rows[0]?.kid)
      .catch(() => undefined);
    return {
      sealed: sealed.rows[0]?.value,
      ...(counts.rows[0] ?? { licenses: 0, artifacts: 0 }),
      releaseKids: signedBy.rows.map((row) => row.kid),
      licenseKid,
    };
  } finally {
    await db.close();
  }
}

/**
 * What a restore lacks of the license or the release signing key, as a sentence; undefined when it has it. The key
 * is the one given (LICENSE_SIGNING_KEY, RELEASE_SIGNING_KEY) or the DATA_DIR's file. Installed tools trust only the
 * key that signed what they have: where the snapshot names the key ids that signed (`neededKids`), the key given
 * must be each of them, or (after a rotation) that key must be among the earlier public keys still honoured.
 */
async function missingSigningKey(
  dataDir: string,
  key: {
    signs: 'license' | 'release';
    given: string | undefined;
    previousPublicKeyPems: string[];
    neededKids: string[] | undefined;
    /** Why the key must be the same one, for the operator. */
    trust: string;
  },
): Promise<string | undefined> {
  const fileName = `${key.signs}-signing-key.pem`;
  const pem =
    key.given ??
    (existsSync(path.join(dataDir, fileName))
      ? await readFile(path.join(dataDir, fileName), 'utf8')
      : undefined);
  const copyIt = `copy ${fileName} from the old DATA_DIR into ${dataDir}, or set ${key.signs.toUpperCase()}_SIGNING_KEY (${key.trust})`;
  if (!pem) return `the ${key.signs} signing key: ${copyIt}`;
  if (!key.neededKids) return undefined;
  const honoured = new Set([
    keyId(createPublicKey(createPrivateKey(pem))),
    ...key.previousPublicKeyPems.map((previous) => keyId(createPublicKey(previous))),
  ]);
  const unknown = key.neededKids.filter((kid) => !honoured.has(kid));
  if (unknown.length === 0) return undefined;
  return `the ${key.signs} signing key that signed this snapshot's ${key.signs}s (key id ${unknown.join(', ')}; the one given is ${[...honoured][0]}): ${copyIt}`;
}

/**
 * What the target DATA_DIR lacks for this snapshot, as sentences naming the files to copy or the settings to set;
 * empty when it has everything. Reads only: no key is generated here.
 */
async function missingKeys(archive: Blob, dataDir: string, keys: RestoreKeys): Promise<string[]> {
  const needs = await snapshotNeeds(archive);
  const missing: string[] = [];
  const inDataDir = (name: string) => existsSync(path.join(dataDir, name));
  if (needs.sealed) {
    const keyFile = path.join(dataDir, 'data-secret-key');
    const key =
      keys.dataSecret.key ??
      (inDataDir('data-secret-key')
        ? Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'hex')
        : undefined);
    if (!key) {
      missing.push(
        `the data key: copy data-secret-key from the old DATA_DIR into ${dataDir}, or set DATA_SECRET_KEY to the old key`,
      );
    } else {
      try {
        createDataSecrets({ dataSecret: { key, previousKeys: keys.dataSecret.previousKeys }, dataDir }).open(
          'licenses.license_key',
          needs.sealed,
        );
      } catch {
        missing.push(
          `the data key that sealed this snapshot: ${keys.dataSecret.key ? 'DATA_SECRET_KEY (or DATA_PREVIOUS_SECRET_KEYS)' : `${keyFile}`} does not open its values; use the old DATA_DIR's data-secret-key or the old DATA_SECRET_KEY`,
        );
      }
    }
  }
  if (needs.licenses > 0) {
    const lacking = await missingSigningKey(dataDir, {
      signs: 'license',
      given: keys.licenseSigningKeyPem,
      previousPublicKeyPems: keys.licensePreviousPublicKeyPems,
      neededKids: needs.licenseKid ? [needs.licenseKid] : undefined,
      trust: 'installed tools trust only its public key',
    });
    if (lacking) missing.push(lacking);
  }
  if (needs.artifacts > 0) {
    const lacking = await missingSigningKey(dataDir, {
      signs: 'release',
      given: keys.releaseSigningKeyPem,
      previousPublicKeyPems: keys.releasePreviousPublicKeyPems,
      neededKids: needs.releaseKids,
      trust: 'installed tools check updates with its public key',
    });
    if (lacking) missing.push(lacking);
  }
  return missing;
}

/**
 * Restores a snapshot into `dataDir`. With `keys`, it first checks (in memory, before anything is written) that the
 * target has the keys the snapshot's data needs, and refuses naming what to copy or set.
 */
export async function restoreBackup(file: string, dataDir: string, keys?: RestoreKeys): Promise<void> {
  const target = pgliteDirOf(dataDir);
  if (existsSync(target) && (await readdir(target)).length > 0) {
    throw new RestoreRefusedError(
      `${target} already holds a database. Stop the server and move that folder aside first; a restore never overwrites one.`,
    );
  }
  const archive = await readFile(file);
  if (keys) {
    let missing: string[];
    try {
      missing = await missingKeys(new Blob([archive]), dataDir, keys);
    } catch (error) {
      throw new RestoreRefusedError(
        `${file} did not open as a database (${(error as Error).message}). Restore a snapshot that backup or the daily snapshot wrote (DATA_DIR/backups/pglite-*.tar.gz); nothing was restored.`,
        { cause: error },
      );
    }
    if (missing.length > 0)
      throw new RestoreRefusedError(
        `Nothing was restored: this DATA_DIR lacks what the snapshot needs. Provide ${missing.join('; and ')}. Then run restore again.`,
      );
  }
  // Taken before anything is written, and held until the end: a failed restore removes only what it unpacked.
  const release = await lockDataDir(target);
  try {
    try {
      const db = await PGlite.create({ dataDir: target, loadDataDir: new Blob([archive]) });
      // A query proves the restored files open as a database before the operator starts the server on them.
      await db.query('select 1');
      await db.close();
    } catch (error) {
      throw new RestoreRefusedError(
        `${file} did not open as a database (${(error as Error).message}). Restore a snapshot that backup or the daily snapshot wrote (DATA_DIR/backups/pglite-*.tar.gz); nothing was restored.`,
        { cause: error },
      );
    }
    // PGlite unpacks with explicit 0666 modes that ignore the umask: owner-only, as the server keeps its own.
    repairDataDirModes(target);
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  } finally {
    await release();
  }
}
