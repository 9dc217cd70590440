import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Another process has this embedded database open. PGlite is PostgreSQL in one process and does not notice a
 * second process opening the same files; both would write to them and corrupt the database.
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`The database in ${dir} is in use by another process (pid ${pid})`);
    this.name = 'DatabaseInUseError';
  }
}

/**
 * When a process started, in clock ticks since boot (Linux). With the pid it names one process for good: a pid
 * reused after a crash or a container restart has a different start time. Undefined where /proc is missing.
 */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isRunning(holder: { pid: number; startTime?: string }): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const startTime = processStartTime(holder.pid);
  return !(holder.startTime && startTime && holder.startTime !== startTime);
}

function parseLock(content: string): { pid: number; startTime?: string } | undefined {
  const [pid, startTime] = content.trim().split(':');
  const parsed = Number(pid);
  return Number.isInteger(parsed) && parsed > 0
    ? { pid: parsed, startTime: startTime || undefined }
    : undefined;
}

/**
 * Claims `<dir>.lock` for this process, so a second server or the admin command line on the same data directory
 * is refused instead of corrupting it. A lock left by a process that died is taken over. Returns the release.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = `${path.resolve(dir)}.lock`;
  await mkdir(path.dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockFile, 'wx');
      try {
        await handle.writeFile(`${process.pid}:${processStartTime(process.pid) ?? ''}\n`);
      } finally {
        await handle.close();
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = parseLock(await readFile(lockFile, 'utf8').catch(() => ''));
    if (holder && isRunning(holder)) throw new DatabaseInUseError(dir, holder.pid);
    // An empty lock may be one another process has created but not written yet: look again before taking it.
    if (!holder && attempt === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    await rm(lockFile, { force: true });
  }
  throw new Error(`could not lock ${dir}: its lock file keeps changing`);
}
