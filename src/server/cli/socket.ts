import { once } from 'node:events';
import { chmodSync, lstatSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { cliActor } from '../operator/audit';
import { type CommandLineEnv, type CommandLineResult, commandRefusal, runCommandLine } from './command-line';

/**
 * The running server's door for `npm run admin` on the embedded database, which only the server's process may
 * open (see docs/decisions/017-admin-commands-through-the-server.md). A Unix domain socket in DATA_DIR, mode 0600:
 * only the OS user who owns the data may connect, the same trust as reading DATA_DIR. One request per connection,
 * one JSON line each way: `{argv, cwd, osUser}` in, `{stdout, stderr, exitCode}` out.
 */

export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

/** An argv and a directory are a few kilobytes; a longer request is refused before it is parsed. */
const REQUEST_MAX_BYTES = 256 * 1024;
/** A connection that has not sent its request by then is closed (a command may then run for as long as it needs). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Linux keeps a socket's path in 108 bytes, the terminating zero included. */
const SOCKET_PATH_MAX_BYTES = 107;

const requestSchema = z
  .object({
    argv: z.array(z.string()).max(500),
    cwd: z.string().refine((value) => path.isAbsolute(value), 'an absolute path'),
    /** The OS user who ran the command line, for the audit log (only that user can reach the socket). */
    osUser: z.string().min(1).max(256),
    debug: z.boolean().optional(),
  })
  .strict();

export type AdminRequest = z.infer<typeof requestSchema>;

const resultSchema = z.object({ stdout: z.string(), stderr: z.string(), exitCode: z.number().int() });

type Log = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
};

export type AdminSocket = { path: string; close(): Promise<void> };

/** The bytes before the first newline; 'too long' past the limit; undefined when the connection ends first. */
function readLine(socket: net.Socket): Promise<Buffer | 'too long' | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: Buffer | 'too long' | undefined) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.setTimeout(0);
      socket.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      const end = chunk.indexOf(0x0a);
      const part = end === -1 ? chunk : chunk.subarray(0, end);
      chunks.push(part);
      size += part.length;
      if (size > REQUEST_MAX_BYTES) finish('too long');
      else if (end !== -1) finish(Buffer.concat(chunks));
    };
    const onClose = () => finish(undefined);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
  });
}

/** The request on this connection; undefined, after answering why, when there is none to run. */
async function readRequest(socket: net.Socket): Promise<AdminRequest | undefined> {
  const received = await readLine(socket);
  if (received === undefined) return undefined;
  if (received === 'too long') {
    socket.end(`${JSON.stringify(commandRefusal('The command line is too long.', 2))}\n`);
    return undefined;
  }
  const parsed = requestSchema.safeParse(safeJson(received.toString('utf8')));
  if (parsed.success) return parsed.data;
  socket.end(`${JSON.stringify(commandRefusal('The request was not understood.', 2))}\n`);
  return undefined;
}

/**
 * Listens on DATA_DIR/admin.sock and runs each request's command with the server's own context. A socket file
 * left by a server that crashed is replaced: this process holds the database lock, so no other server owns it.
 * Resolves to undefined, after a warning, when the socket cannot be made; the command line then says the
 * database is in use, as it would without this.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  env: Pick<CommandLineEnv, 'open' | 'snapshot'>;
  log: Log;
}): Promise<AdminSocket | undefined> {
  const file = adminSocketPath(options.dataDir);
  const unavailable = (reason: string) => {
    options.log.warn(
      { socket: file, reason },
      'admin socket unavailable: npm run admin needs the server stopped',
    );
    return undefined;
  };
  if (Buffer.byteLength(file) > SOCKET_PATH_MAX_BYTES)
    return unavailable('DATA_DIR path too long for a socket');
  try {
    if (!lstatSync(file).isSocket()) return unavailable('a file that is not a socket is in the way');
    rmSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return unavailable((error as Error).message);
  }

  const server = net.createServer((socket) => {
    socket.on('error', () => {}); // the command line went away; the command still completes
    void (async () => {
      const request = await readRequest(socket);
      if (!request) return;
      const result = await runCommandLine(request.argv, {
        ...options.env,
        cwd: request.cwd,
        debug: request.debug,
        actor: cliActor(request.osUser),
        inServer: true,
      });
      options.log.info(
        { command: request.argv.slice(0, 2).join(' '), exitCode: result.exitCode },
        'admin command',
      );
      socket.end(`${JSON.stringify(result)}\n`);
    })();
  });

  // The socket is created with mode 0600 (binding is synchronous, so no moment exists where others could connect);
  // it is set again once listening, for platforms that do not apply the umask to sockets.
  const umask = process.umask(0o177);
  try {
    server.listen(file);
  } finally {
    process.umask(umask);
  }
  const error = await new Promise<Error | undefined>((resolve) => {
    server.once('listening', () => resolve(undefined));
    server.once('error', resolve);
  });
  if (error) return unavailable(error.message);
  chmodSync(file, 0o600);

  return {
    path: file,
    close: async () => {
      // Stops taking requests and waits for those running to answer.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(file, { force: true });
    },
  };
}

/**
 * Asks the server holding the embedded database in `dataDir` to run a command. Undefined when no server
 * answers on the socket (none there, or one left by a server that crashed).
 */
export async function askServer(
  dataDir: string,
  request: AdminRequest,
): Promise<CommandLineResult | undefined> {
  const file = adminSocketPath(dataDir);
  const socket = net.createConnection(file);
  try {
    await once(socket, 'connect');
  } catch (error) {
    socket.destroy();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      return commandRefusal(
        `Cannot reach the running server through ${file}: permission denied. Run the command as the user the server runs as.`,
      );
    }
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK') return undefined;
    return commandRefusal(`Cannot reach the running server through ${file}: ${(error as Error).message}`);
  }
  // Not end(): the server answers on this connection, and a socket half-closed by its peer closes in turn.
  socket.write(`${JSON.stringify(request)}\n`);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of socket as AsyncIterable<Buffer>) chunks.push(chunk);
  } catch {
    // An answer cut short is reported below.
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const parsed = text.endsWith('\n') ? resultSchema.safeParse(safeJson(text)) : undefined;
  if (parsed?.success) return parsed.data;
  return commandRefusal(
    'The running server stopped before it answered (is it shutting down?); the command may or may not have been done.',
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
