import type { Tool } from '../../shared/shop';
import type { AppContext } from '../kernel/context';
import { TtlCache } from '../kernel/ttl-cache';

export type CachedCatalogue = {
  tools: Tool[];
  /** The anonymous answer, serialised once: the hot path sends these bytes as they are. */
  anonymousJson: string;
  loadedAt: number;
};

/** This instance's copy of the active catalogue, and the load under way if any. */
type CatalogueCache = { value?: CachedCatalogue; loading?: Promise<CachedCatalogue> };

/** As short-lived as the session cache: a purchase made on another instance shows as owned within 2 s. */
const OWNED_TOOLS_TTL_MS = 2_000;
const OWNED_TOOLS_MAX_ENTRIES = 10_000;

/** What this instance remembers of the shop (catalogue.ts). Each app context has its own. */
export type ShopCaches = {
  /** Replaced by a fresh object to invalidate, so a load that started before never stores what it read. */
  catalogue: CatalogueCache;
  /**
   * For the catalogue's `purchased` and `trialStarted` flags only; paying, downloading, re-sending and starting a
   * trial check the database.
   */
  ownedTools: TtlCache<string, ShopperTools>;
};

declare module '../kernel/context' {
  interface AppCaches extends ShopCaches {}
}

/**
 * The tools one signed-in visitor owns, those they have had a free trial of, and the end of each trial not bought
 * (tool id → ISO time).
 */
export type ShopperTools = { owned: Set<string>; trialled: Set<string>; trialEnds: Map<string, string> };

export function createShopCaches(): ShopCaches {
  return { catalogue: {}, ownedTools: new TtlCache(OWNED_TOOLS_TTL_MS, OWNED_TOOLS_MAX_ENTRIES) };
}

/** Forget this instance's copy of the catalogue: every write to a tool or an edition calls it. */
export function invalidateCatalogue(ctx: Pick<AppContext, 'caches'>): void {
  ctx.caches.catalogue = {};
}
