import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseInUseError } from '../db';
import { listBackups, pgliteDirOf, RestoreRefusedError, restoreBackup, writeBackup } from '../db/backup';
import { argument, CommandError, configuredOrRefused, defineCommand } from './framework';

function embeddedOnly(databaseUrl: string | undefined): void {
  if (databaseUrl)
    throw new CommandError(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump (see "Backups" in the README); this command is for the embedded database.',
    );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const backup = defineCommand({
  path: ['backup'],
  summary: 'Write a snapshot of the embedded database into DATA_DIR/backups now',
  example: 'backup',
  details:
    'The running server writes one every day by itself and keeps seven. This command is for a copy on demand, ' +
    'e.g. before an upgrade; while the server runs, it takes the snapshot.',
  async run(env) {
    const { dataDir, databaseUrl } = configuredOrRefused();
    embeddedOnly(databaseUrl);
    const snapshot = await env.snapshot();
    if (!snapshot) throw new CommandError('This database cannot be snapshotted.');
    const written = await writeBackup(snapshot, dataDir);
    const kept = await listBackups(dataDir);
    return {
      data: { file: written.file, bytes: written.size, kept: kept.map((entry) => entry.file) },
      text: `Wrote ${written.file} (${megabytes(written.size)}). ${kept.length} snapshot(s) kept.`,
    };
  },
});

const restore = defineCommand({
  path: ['restore'],
  summary: 'Restore a snapshot into DATA_DIR/pglite, which must not exist yet (a fresh DATA_DIR)',
  args: [{ name: 'file', description: 'A snapshot, e.g. data/backups/pglite-20260101T020000Z.tar.gz' }],
  example: 'restore /srv/old-data/backups/pglite-20260101T020000Z.tar.gz',
  details:
    'Never overwrites a database: point DATA_DIR at an empty folder, or stop the server and move DATA_DIR/pglite ' +
    'aside first. Then start the server on that DATA_DIR.',
  notInServer:
    'restore cannot run inside the running server: it writes a fresh DATA_DIR, which no server may have open. Run it with DATA_DIR set to an empty folder.',
  async run(env, input) {
    const file = path.resolve(env.cwd, argument(input, 0));
    // Loading the settings writes a development session secret into a fresh DATA_DIR: a refused restore takes
    // it away again, so nothing is left behind.
    const dataDirOf = path.resolve(process.env.DATA_DIR || './data');
    const secretFile = path.join(dataDirOf, 'session-secret');
    const hadDir = existsSync(dataDirOf);
    const hadSecret = existsSync(secretFile);
    const settings = configuredOrRefused();
    const { dataDir, databaseUrl } = settings;
    embeddedOnly(databaseUrl);
    try {
      await restoreBackup(file, dataDir, {
        dataSecret: settings.dataSecret,
        licenseSigningKeyPem: settings.licenseSigning.privateKeyPem,
        licensePreviousPublicKeyPems: settings.licenseSigning.previousPublicKeyPems,
        releaseSigningKeyPem: settings.releaseSigning.privateKeyPem,
        releasePreviousPublicKeyPems: settings.releaseSigning.previousPublicKeyPems,
      });
    } catch (error) {
      if (!hadSecret) await rm(secretFile, { force: true });
      if (!hadDir) await rm(dataDirOf, { recursive: true, force: true });
      if (error instanceof RestoreRefusedError || error instanceof DatabaseInUseError)
        throw new CommandError(error.message);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CommandError(`No such file: ${file}`);
      throw error;
    }
    return {
      data: { restored: file, into: pgliteDirOf(dataDir) },
      text: `Restored ${file} into ${pgliteDirOf(dataDir)}. Start the server with DATA_DIR=${dataDir}.`,
    };
  },
});

export const backupCommands = [backup, restore];
