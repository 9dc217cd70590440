/** A license's edition as the server names it; null for a tool sold without editions. */
export type Edition = { id: string; name: string };

/**
 * What this machine's license allows (docs/license-api.md, "Editions and entitlements"): the edition, and the
 * entitlements it unlocks, the short feature codes a tool checks before it runs a feature ("may I run OCR?").
 */
export type Licensed = {
  edition: Edition | null;
  entitlements: readonly string[];
  hasEntitlement(code: string): boolean;
  /**
   * The end of the license's updates (ISO 8601), or null for every release: the tool keeps working after it, and
   * may tell its user that newer versions need a renewal.
   */
  updatesUntil: string | null;
};

/** The license's edition, entitlements and end of updates, from a license answer or a verified file's payload. */
export function licensedFrom(source: {
  edition?: Edition | null;
  entitlements?: readonly string[];
  updatesUntil?: string | null;
}): Licensed {
  const entitlements = Object.freeze([...(source.entitlements ?? [])]);
  return {
    edition: source.edition ?? null,
    entitlements,
    hasEntitlement: (code) => entitlements.includes(code),
    updatesUntil: source.updatesUntil ?? null,
  };
}
