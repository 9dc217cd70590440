/**
 * `npm run bench -- --release-day` (issue 69): a release day, when every installed tool asks for its feed within
 * hours. Each feed is per activation (a token in its URL), so no CDN answers for us, and what it offers is worked out
 * per machine (the staged rollout, the update period, the channel).
 *
 * The shop gets 100,000 activations over two tools, one license each (the per-key limit of the license API is 60 a
 * minute, so a fleet answering thousands a second needs as many keys), and each tool 1.0.0 (published a month ago)
 * and 1.1.0 published at a staged 50 %, each with a Windows installer, a WinSparkle and a Sparkle file and a Velopack
 * package. Then, in turns with the floor as `npm run bench` measures (decision 048): the appcast as WinSparkle asks
 * for it, Velopack's `releases.win.json`, the update check, and the appcast and Velopack's feed again with
 * `If-None-Match` (what a client that already has the feed is answered), and validate, with every machine's version
 * recorded for the adoption figures as they ask.
 *
 * Each round has its own third of the fleet, each connection its slice of it; the machines of a round have asked
 * once before it is measured (`prepare`), as a fleet that polls does, so what is measured is the answer to a machine
 * this instance has seen, which is also when the conditional feeds are asked. The conditional routes use 5,000 of
 * the round's machines, whose ETags `prepare` fetches; validate the 4,000 the main bench uses (its memory holds 20,000).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type autocannon from 'autocannon';
import { eq } from 'drizzle-orm';
import { tools } from '../src/server/db/schema/catalogue';
import { releases } from '../src/server/db/schema/releases';
import { createLocalStorage } from '../src/server/storage';
import { addRelease, nupkg } from '../test/support/release-fixtures';
import { forwardedFor, type Load, type Route } from './support/bench-route';
import {
  activatedLicenses,
  type FleetMachine,
  licenseBody,
  type ProductionServer,
  type SeedTarget,
} from './support/prod-server';

const MACHINES_PER_TOOL = 50_000;
const CONNECTIONS = 100;
const ROUNDS = 3;
const CONDITIONAL_PER_ROUND = 5_000;
const VALIDATE_PER_ROUND = 4_000;
const RUNNING = '1.0.0';
const STAGED_PERCENT = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The release-day shop: filled by `seed` before the server starts, read by the routes. */
export type ReleaseDay = { fleet: FleetMachine[]; packageIds: Map<string, string> };

const filesOf = (packageId: string, version: string) => [
  {
    platform: 'windows' as const,
    kind: 'installer' as const,
    fileName: `${packageId}-${version}-setup.exe`,
    content: Buffer.from(`installer ${version}`),
  },
  {
    platform: 'windows' as const,
    kind: 'sparkle' as const,
    fileName: `${packageId}-${version}-x64.exe`,
    content: Buffer.from(`winsparkle ${version}`),
  },
  {
    platform: 'macos' as const,
    arch: 'universal' as const,
    kind: 'sparkle' as const,
    fileName: `${packageId}-${version}.zip`,
    content: Buffer.from(`sparkle ${version}`),
  },
  {
    platform: 'windows' as const,
    kind: 'velopack' as const,
    fileName: `${packageId}-${version}-full.nupkg`,
    content: nupkg(packageId, version),
  },
];

/**
 * One tool of the release day, in `day`: `count` machines activated on 1.0.0 (published a month ago) and 1.1.0
 * rolling out to STAGED_PERCENT, each release with its Windows installer, WinSparkle, Sparkle and Velopack files, and
 * announced already (what is measured is the feeds, not the fleet's emails queued meanwhile). `label` names it.
 */
export async function seedStagedRollout(
  { db, secrets, dataDir }: SeedTarget,
  day: ReleaseDay,
  count: number,
  label: string,
): Promise<void> {
  const storage = createLocalStorage(path.join(dataDir, 'files'));
  const tag = randomBytes(3).toString('hex');
  const packageId = `${label.replaceAll(' ', '')}${tag}`;
  const machines = await activatedLicenses(db, secrets, count, { name: `${label} ${tag}` });
  const toolId = machines[0]?.toolId ?? '';
  await db.update(tools).set({ packageId }).where(eq(tools.id, toolId));
  day.packageIds.set(toolId, packageId);
  await addRelease(
    { db, storage },
    {
      toolId,
      version: RUNNING,
      artifacts: filesOf(packageId, RUNNING),
      publishedAt: new Date(Date.now() - 30 * DAY_MS),
    },
  );
  const staged = await addRelease(
    { db, storage },
    { toolId, version: '1.1.0', artifacts: filesOf(packageId, '1.1.0') },
  );
  await db
    .update(releases)
    .set({ rolloutPercent: STAGED_PERCENT, rolloutState: 'rolling' })
    .where(eq(releases.id, staged.release.id));
  await db.update(releases).set({ announcedAt: new Date() }).where(eq(releases.toolId, toolId));
  day.fleet.push(...machines);
}

/** Seeds the fleet and the releases (startProductionServer's `seed`). */
export function releaseDaySeed(day: ReleaseDay) {
  return async (target: SeedTarget) => {
    const started = performance.now();
    for (const letter of ['A', 'B'])
      await seedStagedRollout(target, day, MACHINES_PER_TOOL, `Release Day ${letter}`);
    // Interleaved, so each round's third and each connection's slice hold machines of both tools.
    day.fleet.sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
    console.log(
      `release day: ${day.fleet.length} machines and their releases seeded in ${Math.round((performance.now() - started) / 1000)} s`,
    );
  };
}
/** The machines of one round (its third of the fleet), `count` of them at most, and their indexes. */
function roundOf(day: ReleaseDay, round: number, count = Number.POSITIVE_INFINITY) {
  const third = Math.floor(day.fleet.length / ROUNDS);
  const first = round * third;
  return { first, machines: day.fleet.slice(first, first + Math.min(third, count)) };
}

/** Each connection its slice of `machines`, every request built once before the run (decision 026). */
function fleetLoad(
  machines: FleetMachine[],
  first: number,
  request: (machine: FleetMachine, index: number) => autocannon.Request,
  method: 'GET' | 'POST',
): Load {
  const perConnection = Math.max(1, Math.floor(machines.length / CONNECTIONS));
  let connection = 0;
  return {
    method,
    setupClient: (client) => {
      const slice = (connection % CONNECTIONS) * perConnection;
      connection += 1;
      client.setRequests(
        machines
          .slice(slice, slice + perConnection)
          .map((machine, offset) => request(machine, first + slice + offset)),
      );
    },
  };
}

export const feedPath = (machine: FleetMachine, file: string) => `/api/updates/${machine.token}/${file}`;
export const appcastFile = 'appcast.xml';
export const velopackFileOf = (day: ReleaseDay, machine: FleetMachine) =>
  `releases.win.json?localVersion=${RUNNING}&id=${day.packageIds.get(machine.toolId)}`;
/** WinSparkle names the app's version in its User-Agent (releases/adoption.ts reads it). */
export const WINSPARKLE = `Release Day/${RUNNING} WinSparkle/0.8.1`;

/** Sends each machine's request once, `parallel` at a time; returns what `keep` takes of each answer. */
async function askEach<T>(
  server: ProductionServer,
  machines: FleetMachine[],
  first: number,
  ask: (machine: FleetMachine, index: number) => { path: string; init?: RequestInit },
  keep: (response: Response) => T,
  parallel = 50,
): Promise<T[]> {
  const kept: T[] = new Array(machines.length);
  for (let start = 0; start < machines.length; start += parallel) {
    await Promise.all(
      machines.slice(start, start + parallel).map(async (machine, offset) => {
        const index = start + offset;
        const { path: route, init } = ask(machine, first + index);
        const response = await fetch(`${server.url}${route}`, init);
        kept[index] = keep(response);
        await response.arrayBuffer();
      }),
    );
  }
  return kept;
}

const expectOk = (route: string) => (response: Response) => {
  if (response.status !== 200) throw new Error(`${route} answered ${response.status} while preparing`);
  return response.headers.get('etag') ?? '';
};

export function releaseDayRoutes(server: ProductionServer, day: ReleaseDay): Route[] {
  const updateCheckBody = (machine: FleetMachine) =>
    JSON.stringify({ ...licenseBody(machine), platform: 'windows', arch: 'x64', version: RUNNING });
  const post = (body: string, index: number): autocannon.Request => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor(index) },
    body,
  });
  const appcastRequest = (machine: FleetMachine, index: number, etag?: string): autocannon.Request => ({
    method: 'GET',
    path: feedPath(machine, appcastFile),
    headers: {
      'user-agent': WINSPARKLE,
      'x-forwarded-for': forwardedFor(index),
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
  const velopackRequest = (machine: FleetMachine, index: number, etag?: string): autocannon.Request => ({
    method: 'GET',
    path: feedPath(machine, velopackFileOf(day, machine)),
    headers: { 'x-forwarded-for': forwardedFor(index), ...(etag ? { 'if-none-match': etag } : {}) },
  });
  const asRequest = (request: autocannon.Request) => ({
    path: request.path ?? '',
    init: {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body as string,
    },
  });

  /** A feed, and the same feed revalidated with each machine's own ETag (fetched by `prepare`). */
  const feed = (
    name: string,
    request: (machine: FleetMachine, index: number, etag?: string) => autocannon.Request,
  ): Route[] => {
    const etags = new Map<number, string[]>();
    return [
      {
        name: `GET ${name}`,
        path: '/',
        floorPath: '/',
        minShare: 0.5,
        load: (round) => {
          const { first, machines } = roundOf(day, round);
          return fleetLoad(machines, first, request, 'GET');
        },
        async prepare(round) {
          const { first, machines } = roundOf(day, round);
          const found = await askEach(
            server,
            machines,
            first,
            (m, i) => asRequest(request(m, i)),
            expectOk(name),
          );
          etags.set(round, found.slice(0, CONDITIONAL_PER_ROUND));
        },
      },
      {
        name: `GET ${name} with If-None-Match (304)`,
        path: '/',
        floorPath: '/',
        minShare: 0.8,
        expectedStatus: 304,
        load: (round) => {
          const { first, machines } = roundOf(day, round, CONDITIONAL_PER_ROUND);
          const known = etags.get(round) ?? [];
          return fleetLoad(machines, first, (m, i) => request(m, i, known[i - first]), 'GET');
        },
      },
    ];
  };

  return [
    ...feed('appcast.xml (WinSparkle)', appcastRequest),
    ...feed("Velopack's releases.win.json", velopackRequest),
    {
      name: 'POST /api/licenses/update-check',
      path: '/api/licenses/update-check',
      floorPath: '/',
      minShare: 0.5,
      load: (round) => {
        const { first, machines } = roundOf(day, round);
        return fleetLoad(machines, first, (machine, index) => post(updateCheckBody(machine), index), 'POST');
      },
      async prepare(round) {
        const { first, machines } = roundOf(day, round);
        await askEach(
          server,
          machines,
          first,
          (machine, index) =>
            asRequest({ path: '/api/licenses/update-check', ...post(updateCheckBody(machine), index) }),
          expectOk('the update check'),
        );
      },
    },
    {
      name: 'POST /api/licenses/validate (versions recorded)',
      path: '/api/licenses/validate',
      floorPath: '/',
      minShare: 0.5,
      load: (round) => {
        const { first, machines } = roundOf(day, round, VALIDATE_PER_ROUND);
        return fleetLoad(
          machines,
          first,
          (machine, index) => post(JSON.stringify(licenseBody(machine)), index),
          'POST',
        );
      },
      async prepare(round) {
        const { first, machines } = roundOf(day, round, VALIDATE_PER_ROUND);
        await askEach(
          server,
          machines,
          first,
          (machine, index) =>
            asRequest({
              path: '/api/licenses/validate',
              ...post(JSON.stringify(licenseBody(machine)), index),
            }),
          expectOk('validate'),
        );
      },
    },
  ];
}
