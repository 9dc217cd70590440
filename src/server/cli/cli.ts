/**
 * `npm run admin -- <command>`: the operator's command line. Runs the server's own modules on the server's
 * configuration and database; see the README section "Operating the shop". When a running server holds the
 * embedded database, the command is run by that server instead (socket.ts), and its answer printed here.
 */

import { userInfo } from 'node:os';
import { createAppContext } from '../compose';
import { cliActor } from '../operator/audit';
import { startUp } from '../startup';
import { type CommandLineResult, runCommandLine } from './command-line';
import { type AdminRuntime, DatabaseHeldError, openRuntime } from './runtime';
import { askServer } from './socket';

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (text === '' || stream.write(text)) resolve();
    else stream.once('drain', resolve);
  });
}

async function main(argv: string[]): Promise<number> {
  const request = {
    argv,
    cwd: process.cwd(),
    osUser: userInfo().username,
    debug: Boolean(process.env.ADMIN_DEBUG),
  };
  const opened: { runtime?: AdminRuntime; held?: DatabaseHeldError } = {};
  const runtime = async () => {
    try {
      opened.runtime ??= await openRuntime(async (config, database) => {
        const ctx = createAppContext({ config, db: database.db });
        await startUp(database, ctx);
        return ctx;
      });
      return opened.runtime;
    } catch (error) {
      if (error instanceof DatabaseHeldError) opened.held = error;
      throw error;
    }
  };

  let result: CommandLineResult;
  try {
    // Commands check their input before they open the database, so help, typos and invalid values are
    // answered here; only a command that got as far as the database goes to the server.
    result = await runCommandLine(argv, {
      cwd: request.cwd,
      debug: request.debug,
      actor: cliActor(request.osUser),
      open: async () => (await runtime()).ctx,
      snapshot: async () => (await runtime()).database.snapshot,
    });
  } finally {
    await opened.runtime?.close().catch(() => {});
  }
  if (opened.held) result = (await askServer(opened.held.dataDir, request)) ?? result;

  await write(process.stdout, result.stdout);
  await write(process.stderr, result.stderr);
  return result.exitCode;
}

// Exit explicitly: an HTTP keep-alive socket (the gateway) must not hold the command open after its answer.
main(process.argv.slice(2)).then((code) => process.exit(code));
