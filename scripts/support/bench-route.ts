import type autocannon from 'autocannon';

/** What a route is sent: autocannon's options but the address, which is the route's or the floor's. */
export type Load = Omit<autocannon.Options, 'url'>;

export type Route = {
  name: string;
  path: string;
  /** The floor's route that answers like this one: `/` (JSON) or `/page<path>` (the page's own bytes). */
  floorPath: string;
  /** The least share of the floor's answers/s this route must reach; undefined: measured, not budgeted. */
  minShare?: number;
  /** The status every answer must have: 200 unless said (a revalidated page's is 304). */
  expectedStatus?: number;
  load(round: number): Load;
  /** Runs before each round's measurement (validate: every machine of the round's fleet starts once). */
  prepare?(round: number): Promise<void>;
};

/** A machine's own address, as the fleet's requests come through the proxy (TRUST_PROXY): 10.x.y.z by index. */
export const forwardedFor = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
