import { createHash } from 'node:crypto';
import type { ReleaseRow } from './store';

/**
 * What one machine is offered of a tool's published releases (decision 060): the one rule that the update check,
 * the Sparkle / WinSparkle appcast, Velopack's `releases.<channel>.json` and Squirrel's `RELEASES` all apply, after
 * their own filters (channel, platform, architecture, minimum OS). Two things decide it, per machine:
 *
 * - **the staged rollout**: a `rolling` release reaches the machines whose place is below its percentage, a
 *   `halted` one no machine, a `complete` one every machine. The place is fixed per machine and release, so raising
 *   the percentage only adds machines, and every instance gives the same answer;
 * - **the license's update period** (issue 65): a release published on or before `updatesUntil` may be installed;
 *   a newer one it would otherwise get is only announced (Sparkle's informational item, the update check's
 *   `renewal`). `updatesUntil` null is every release, as before update periods existed.
 */

/** The machine asking: its activation (its place in each rollout) and its license's end of updates. */
export type Machine = { activationId: string; updatesUntil: Date | null };

/** The machine's place in a release's rollout, 0–99: `hash(activationId, releaseId) mod 100` (DESIGN.md §11). */
export function rolloutPlace(activationId: string, releaseId: string): number {
  return createHash('sha256').update(`${activationId}:${releaseId}`).digest().readUInt32BE(0) % 100;
}

type Rollout = Pick<ReleaseRow, 'id' | 'rolloutPercent' | 'rolloutState'>;

/**
 * A machine's places, per release, once worked out: a feed's machine is the same remembered object on every request
 * (licenses/memory.ts), and a SHA-256 per release per request was a tenth of what a feed cost on a release day.
 */
const knownPlaces = new WeakMap<Machine, Map<string, number>>();

function placeOf(machine: Machine, releaseId: string): number {
  let places = knownPlaces.get(machine);
  if (!places) {
    places = new Map();
    knownPlaces.set(machine, places);
  }
  let place = places.get(releaseId);
  if (place === undefined) {
    place = rolloutPlace(machine.activationId, releaseId);
    places.set(releaseId, place);
  }
  return place;
}

/** Whether the release's rollout reaches this machine now. */
function reaches(release: Rollout, machine: Machine): boolean {
  if (release.rolloutState === 'complete') return true;
  if (release.rolloutState === 'halted') return false;
  return placeOf(machine, release.id) < release.rolloutPercent;
}

/** When a release counts as published for the update period: its publication (a seeded one, its creation). */
const publishedOn = (release: Pick<ReleaseRow, 'publishedAt' | 'createdAt'>) =>
  release.publishedAt ?? release.createdAt;

/** Whether the license's update period covers the release. */
export const withinUpdates = (
  release: Pick<ReleaseRow, 'publishedAt' | 'createdAt'>,
  updatesUntil: Date | null,
) => updatesUntil === null || publishedOn(release).getTime() <= updatesUntil.getTime();

export type Offer<E> = {
  /** What the machine may install, in the order given (newest version first). */
  installable: E[];
  /**
   * The entries of the newest release beyond its update period that the rollout reaches, when it is newer than
   * everything installable: what a renewal would bring. Empty when there is none.
   */
  announced: E[];
};

/**
 * Splits `entries` (a feed's releases with their files, newest version first, already narrowed by the caller's
 * filters) into what this machine may install and what it is only told about. A release the rollout does not
 * reach is in neither: the machine keeps being offered the newest release it may have.
 */
export function offerTo<E extends { release: ReleaseRow }>(
  machine: Machine,
  entries: readonly E[],
): Offer<E> {
  const installable: E[] = [];
  let announcedId: string | undefined;
  for (const entry of entries) {
    const { release } = entry;
    if (!reaches(release, machine)) continue;
    if (withinUpdates(release, machine.updatesUntil)) installable.push(entry);
    // Newest first: the first release beyond the period is the newest, and it counts only above the installable.
    else if (announcedId === undefined && installable.length === 0) announcedId = release.id;
  }
  return {
    installable,
    announced: announcedId === undefined ? [] : entries.filter((entry) => entry.release.id === announcedId),
  };
}
