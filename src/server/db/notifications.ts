import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** How often a PostgreSQL listener proves its connection still works. */
const HEARTBEAT_INTERVAL_MS = 1000;
/**
 * A listener whose connection has not answered for this long is not trusted: a half-open connection (the database
 * host gone without a word) delivers nothing and reports nothing, so silence is the only sign.
 */
const HEARTBEAT_LIMIT_MS = 2000;
/** Wait before listening again after the connection was lost. */
const RECONNECT_DELAY_MS = 1000;

export type ChannelHandlers = {
  message(payload: string): void;
  /** Listening has (re)started: whatever was notified while it was not is unknown. */
  listening(): void;
};

/** NOTIFY on one channel, followed for as long as this instance runs. */
export type ChannelFollower = {
  /** True while every notification committed now is known to arrive here. */
  healthy(): boolean;
  close(): Promise<void>;
};

/** Embedded PGlite: one process, so notifications cannot be lost in transit. */
export async function followPglite(
  client: PGlite,
  channel: string,
  handlers: ChannelHandlers,
): Promise<ChannelFollower> {
  const unlisten = await client.listen(channel, handlers.message);
  handlers.listening();
  return { healthy: () => true, close: () => unlisten() };
}

/**
 * PostgreSQL: a connection of its own (a pooled one would be handed to queries), kept listening and opened again
 * when lost. Every second it notifies a channel only it listens to and counts as healthy only while that comes
 * back: proof that notifications reach it, which a half-open connection or a pooler in transaction mode (PgBouncer)
 * would silently stop. Starting never fails: until the first probe returns it is simply unhealthy.
 */
export function followPostgres(
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
  onProblem: (error: Error) => void = () => {},
): ChannelFollower {
  const probeChannel = `${channel}_probe_${randomBytes(6).toString('hex')}`;
  let client: pg.Client | undefined;
  let listeningAt = Number.NEGATIVE_INFINITY;
  let answeredAt = Number.NEGATIVE_INFINITY;
  let asking = false;
  let closed = false;
  let reconnect: NodeJS.Timeout | undefined;

  const lose = (lost: pg.Client, error?: Error) => {
    if (client !== lost) return;
    client = undefined;
    listeningAt = answeredAt = Number.NEGATIVE_INFINITY;
    asking = false;
    if (error) onProblem(error);
    lost.end().catch(() => {});
    if (!closed) reconnect = setTimeout(connect, RECONNECT_DELAY_MS);
  };

  const probe = (current: pg.Client) => {
    asking = true;
    current
      .query(`NOTIFY ${pg.escapeIdentifier(probeChannel)}`)
      .catch((error: Error) => lose(current, error));
  };

  async function connect(): Promise<void> {
    reconnect = undefined;
    const next = new pg.Client({
      connectionString,
      connectionTimeoutMillis: HEARTBEAT_LIMIT_MS,
      // Named, so an operator looking at pg_stat_activity knows what this idle connection is.
      application_name: `listen:${channel}`,
    });
    client = next;
    next.on('notification', (notice) => {
      if (notice.channel === channel) handlers.message(notice.payload ?? '');
      else if (notice.channel === probeChannel && client === next) {
        asking = false;
        answeredAt = performance.now();
      }
    });
    next.on('error', (error) => lose(next, error));
    next.on('end', () => lose(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}; LISTEN ${pg.escapeIdentifier(probeChannel)}`);
      if (client !== next || closed) return;
      listeningAt = performance.now();
      handlers.listening();
      probe(next);
    } catch (error) {
      lose(next, error as Error);
    }
  }

  const heartbeat = setInterval(() => {
    const current = client;
    if (!current || listeningAt === Number.NEGATIVE_INFINITY) return;
    if (asking) {
      // The last probe has not come back: past the limit, give this connection up and open another.
      if (performance.now() - Math.max(answeredAt, listeningAt) >= HEARTBEAT_LIMIT_MS)
        lose(
          current,
          new Error(`notifications on ${channel} stopped arriving (or a pooler does not pass them on)`),
        );
      return;
    }
    probe(current);
  }, HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  void connect();

  return {
    healthy: () => client !== undefined && performance.now() - answeredAt < HEARTBEAT_LIMIT_MS,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(reconnect);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

/** Where an instance keeps its follower of one channel, so its caches know whether they hear every change. */
export type FollowerSlot = { follower?: Pick<ChannelFollower, 'healthy'> };

/**
 * Follows a channel whose triggers announce what changed (a row's id, or `*` for everything) and calls `forget` for
 * each announcement, and with nothing when listening (re)starts, since what was announced meanwhile is unknown. The
 * follower is kept in `slot` while it runs. The license and release change feeds (decisions 018 and 066).
 */
export async function followChanges(
  database: {
    follow(
      channel: string,
      handlers: ChannelHandlers,
      onProblem?: (error: Error) => void,
    ): Promise<ChannelFollower>;
  },
  channel: string,
  slot: FollowerSlot,
  forget: (changed?: string) => void,
  onProblem?: (error: Error) => void,
): Promise<ChannelFollower> {
  const follower = await database.follow(
    channel,
    { message: (payload) => forget(payload === '*' ? undefined : payload), listening: () => forget() },
    onProblem,
  );
  slot.follower = follower;
  return {
    healthy: follower.healthy,
    async close() {
      if (slot.follower === follower) slot.follower = undefined;
      await follower.close();
    },
  };
}
