import DataLoader from 'dataloader';
import { and, count, desc, eq, gte, isNull, type SQL, sql } from 'drizzle-orm';
import semver from 'semver';
import { ACTIVE_MACHINE_DAYS, type AdoptionDay, type ToolAdoption } from '../../shared/releases';
import type { Database, DbOrTx } from '../db';
import { tools } from '../db/schema/catalogue';
import { licenseActivations, licenses } from '../db/schema/licenses';
import { purchases } from '../db/schema/orders';
import { machineVersions, releaseMachines, releases } from '../db/schema/releases';
import { trials } from '../db/schema/trials';
import type { Clock } from '../kernel/clock';
import { DAY_MS, lastIstDays } from '../kernel/operator-time';
import { makeRoom } from '../kernel/ttl-cache';
import { newestFirst } from './store';

/**
 * Which version each machine runs, and how far each release has got (issue 66, decision 060). The update check and
 * the feeds report what they see; this instance writes it at most once an hour per machine (sooner only when the
 * version or the release offered changes), so a tool that polls its feed every few minutes costs no write per poll.
 */

/** What a feed request or an update check saw of one machine. */
export type Sighting = {
  activationId: string;
  toolId: string;
  /** The version it runs, as it reported it; null when the request does not say (a custom User-Agent). */
  version: string | null;
  /** The newest release it was offered above that version, if any. */
  offeredReleaseId: string | null;
};

export type AdoptionRecorder = {
  /** Notes a sighting: written when this instance has not written one for the machine within the hour. */
  sighted(sighting: Sighting): Promise<void>;
  /** Notes that a machine downloaded a file of a release (the first time only). */
  downloaded(activationId: string, releaseId: string): Promise<void>;
};

declare module '../kernel/context' {
  interface AppContext {
    /** The versions machines run and the releases they were offered, written at most hourly per machine. */
    adoption: AdoptionRecorder;
  }
}

/** How often one machine's sighting is written while nothing about it changes. */
export const SIGHTING_RESOLUTION_MS = 60 * 60 * 1000;
/** Machines remembered per instance; past it the oldest tenth is forgotten (and written again when next seen). */
const REMEMBERED_MACHINES = 100_000;
const WRITE_BATCH = 100;

/** The version as releases store it (`semver.valid`), or null for anything that is not a semantic version. */
export const reportedVersion = (text: string | null | undefined): string | null =>
  (text && semver.valid(text.trim())) || null;

/**
 * The running version in a Sparkle or WinSparkle User-Agent: Sparkle sends `<App>/<CFBundleShortVersionString>
 * Sparkle/<its version>` (SPUUserAgent+Private.m), WinSparkle `<App>/<version resource> WinSparkle/<its version>`
 * (download.cpp, MakeUserAgent) — for apps set up as docs/updates.md says, the release's semver.
 */
export function versionFromUserAgent(userAgent: string | undefined): string | null {
  const match = userAgent && /\/([^\s/]+) (?:Win)?Sparkle\/\S/.exec(userAgent);
  return match ? reportedVersion(match[1]) : null;
}

type Remembered = { version: string | null; offeredReleaseId: string | null; at: number };
type Stamped = Sighting & { at: Date };

/** One batch of sightings: the machines' versions, the releases they run, the releases they were offered. */
async function writeSightings(db: Database, batch: readonly Stamped[]): Promise<undefined[]> {
  // One row per machine (the latest), and one time for the batch: its sightings came within a few milliseconds.
  // In the order of their keys: two instances upserting overlapping machines then lock rows in the same order, and on
  // PostgreSQL they wait for each other instead of deadlocking.
  const latest = [...new Map(batch.map((sighting) => [sighting.activationId, sighting])).values()].sort(
    (a, b) => (a.activationId < b.activationId ? -1 : a.activationId > b.activationId ? 1 : 0),
  );
  const at = new Date(Math.max(...batch.map((sighting) => sighting.at.getTime())));
  const versioned = latest.filter(
    (sighting): sighting is Stamped & { version: string } => sighting.version !== null,
  );
  if (versioned.length > 0) {
    await db
      .insert(machineVersions)
      .values(
        versioned.map(({ activationId, toolId, version }) => ({ activationId, toolId, version, seenAt: at })),
      )
      .onConflictDoUpdate({
        target: machineVersions.activationId,
        set: { toolId: sql`excluded.tool_id`, version: sql`excluded.version`, seenAt: sql`excluded.seen_at` },
      });
    const reported = sql.join(
      versioned.map(
        ({ activationId, toolId, version }) =>
          sql`(${activationId}::uuid, ${toolId}::uuid, ${version}::text)`,
      ),
      sql`, `,
    );
    await db.execute(sql`
      insert into release_machines (release_id, activation_id, running_at)
      select r.id, s.activation_id, ${at.toISOString()}::timestamptz
      from (values ${reported}) as s(activation_id, tool_id, version)
      join releases r on r.tool_id = s.tool_id and r.version = s.version
      order by r.id, s.activation_id
      on conflict (release_id, activation_id)
        do update set running_at = coalesce(release_machines.running_at, excluded.running_at)`);
  }
  const offered = latest.filter(
    (sighting): sighting is Stamped & { offeredReleaseId: string } => sighting.offeredReleaseId !== null,
  );
  if (offered.length > 0) {
    await db
      .insert(releaseMachines)
      .values(
        offered.map(({ activationId, offeredReleaseId }) => ({
          releaseId: offeredReleaseId,
          activationId,
          offeredAt: at,
        })),
      )
      .onConflictDoNothing();
  }
  return batch.map(() => undefined);
}

/** This instance's recorder: what it last wrote per machine, and the writes of one turn of the event loop batched. */
export function createAdoptionRecorder(db: Database, clock: Clock): AdoptionRecorder {
  const written = new Map<string, Remembered>();
  const downloads = new Map<string, true>();
  const writes = new DataLoader<Stamped, undefined, string>((batch) => writeSightings(db, batch), {
    cache: false,
    maxBatchSize: WRITE_BATCH,
    batchScheduleFn: (callback) => setImmediate(callback),
  });
  return {
    async sighted(sighting) {
      const version = reportedVersion(sighting.version);
      const { offeredReleaseId } = sighting;
      if (version === null && offeredReleaseId === null) return;
      const now = clock.now();
      const before = written.get(sighting.activationId);
      const changed =
        !before ||
        (version !== null && version !== before.version) ||
        (offeredReleaseId !== null && offeredReleaseId !== before.offeredReleaseId) ||
        now.getTime() - before.at >= SIGHTING_RESOLUTION_MS;
      if (!changed) return;
      // Remembered before the write, so concurrent requests of one machine write once.
      written.delete(sighting.activationId);
      makeRoom(written, REMEMBERED_MACHINES);
      written.set(sighting.activationId, {
        version: version ?? before?.version ?? null,
        offeredReleaseId: offeredReleaseId ?? before?.offeredReleaseId ?? null,
        at: now.getTime(),
      });
      await writes.load({ ...sighting, version, at: now });
    },
    async downloaded(activationId, releaseId) {
      const key = `${activationId}:${releaseId}`;
      if (downloads.has(key)) return;
      makeRoom(downloads, REMEMBERED_MACHINES);
      downloads.set(key, true);
      await db
        .insert(releaseMachines)
        .values({ releaseId, activationId, downloadedAt: clock.now() })
        .onConflictDoUpdate({
          target: [releaseMachines.releaseId, releaseMachines.activationId],
          set: { downloadedAt: sql`coalesce(${releaseMachines.downloadedAt}, excluded.downloaded_at)` },
        });
    },
  };
}

/** A bought license's tool comes from its purchase, a trial's from its trial. */
const toolOfLicense = sql`${tools.id} = coalesce(${purchases.toolId}, ${trials.toolId})`;

/**
 * The live machines seen within `ACTIVE_MACHINE_DAYS` (by validate's "last seen" or by a sighting), grouped by the
 * version they last reported (null: never reported one), for one tool or every tool.
 */
async function activeMachines(db: DbOrTx, now: Date, toolId?: string) {
  const since = new Date(now.getTime() - ACTIVE_MACHINE_DAYS * DAY_MS);
  const conditions: SQL[] = [
    isNull(licenseActivations.deactivatedAt),
    gte(sql`greatest(${licenseActivations.lastSeenAt}, ${machineVersions.seenAt})`, since),
  ];
  if (toolId) conditions.push(eq(tools.id, toolId));
  return db
    .select({ toolId: tools.id, toolName: tools.name, version: machineVersions.version, machines: count() })
    .from(licenseActivations)
    .innerJoin(licenses, eq(licenses.id, licenseActivations.licenseId))
    .leftJoin(purchases, eq(purchases.id, licenses.purchaseId))
    .leftJoin(trials, eq(trials.licenseId, licenses.id))
    .innerJoin(tools, toolOfLicense)
    .leftJoin(machineVersions, eq(machineVersions.activationId, licenseActivations.id))
    .where(and(...conditions))
    .groupBy(tools.id, tools.name, machineVersions.version);
}

/** Active machines per tool and version, for the Prometheus gauge (`version` null: never reported). */
export const machinesByVersion = (db: DbOrTx, now: Date) => activeMachines(db, now);

const CHART_DAYS = 30;
const MILESTONES = ['offered', 'downloaded', 'running'] as const;
type Milestone = (typeof MILESTONES)[number];
const milestoneColumn = {
  offered: releaseMachines.offeredAt,
  downloaded: releaseMachines.downloadedAt,
  running: releaseMachines.runningAt,
} as const;

/** How many machines reached each milestone of each of the tool's releases, per day in India. */
async function milestonesPerDay(db: DbOrTx, toolId: string, milestone: Milestone) {
  const column = milestoneColumn[milestone];
  const day = sql<string>`to_char(${column} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ releaseId: releaseMachines.releaseId, day, machines: count() })
    .from(releaseMachines)
    .innerJoin(releases, eq(releases.id, releaseMachines.releaseId))
    .where(and(eq(releases.toolId, toolId), sql`${column} is not null`))
    .groupBy(releaseMachines.releaseId, day);
  return rows.map((row) => ({ ...row, milestone }));
}

/** Cumulative counts per day: each of `days` holds everything up to its end. */
function perDay(
  events: ReadonlyArray<{ day: string; machines: number; milestone: Milestone }>,
  days: readonly string[],
): AdoptionDay[] {
  return days.map((day) => {
    const upTo = (milestone: Milestone) =>
      events
        .filter((event) => event.milestone === milestone && event.day <= day)
        .reduce((sum, event) => sum + event.machines, 0);
    return { day, offered: upTo('offered'), downloaded: upTo('downloaded'), running: upTo('running') };
  });
}

/**
 * A tool's adoption (`releases adoption`, the dashboard's release page): each version its releases have or its
 * machines report, newest first, with the active machines that run it and its share of them, and for a release the
 * machines offered it, that downloaded it and that ran it, in total and per day over the last 30 days.
 */
export async function toolAdoption(
  db: DbOrTx,
  tool: { id: string; name: string },
  now: Date,
): Promise<ToolAdoption> {
  const [machines, released, ...milestones] = await Promise.all([
    activeMachines(db, now, tool.id),
    db
      .select()
      .from(releases)
      .where(and(eq(releases.toolId, tool.id), sql`${releases.state} <> 'draft'`))
      .orderBy(desc(releases.createdAt)),
    ...MILESTONES.map((milestone) => milestonesPerDay(db, tool.id, milestone)),
  ]);
  const events = milestones.flat();
  const days = lastIstDays(now.getTime(), CHART_DAYS);
  const activeTotal = machines.reduce((sum, row) => sum + row.machines, 0);
  const running = new Map(machines.map((row) => [row.version, row.machines]));
  const versions = new Set([
    ...released.map((release) => release.version),
    ...machines.flatMap((row) => (row.version === null ? [] : [row.version])),
  ]);
  const total = (releaseId: string, milestone: Milestone) =>
    events
      .filter((event) => event.releaseId === releaseId && event.milestone === milestone)
      .reduce((sum, event) => sum + event.machines, 0);
  return {
    toolId: tool.id,
    toolName: tool.name,
    activeMachines: activeTotal,
    unknownVersion: running.get(null) ?? 0,
    versions: [...versions]
      .map((version) => ({ version }))
      .sort(newestFirst)
      .map(({ version }) => {
        const release = released.find((row) => row.version === version);
        const machinesOnIt = running.get(version) ?? 0;
        const ofRelease = release ? events.filter((event) => event.releaseId === release.id) : [];
        return {
          version,
          releaseId: release?.id ?? null,
          releaseState: release?.state ?? null,
          rollout: release ? { percent: release.rolloutPercent, state: release.rolloutState } : null,
          machines: machinesOnIt,
          share: activeTotal === 0 ? 0 : machinesOnIt / activeTotal,
          offered: release ? total(release.id, 'offered') : 0,
          downloaded: release ? total(release.id, 'downloaded') : 0,
          running: release ? total(release.id, 'running') : 0,
          days: perDay(ofRelease, days),
        };
      }),
  };
}
