/** The shape of a policy document (Privacy Policy, Terms and Conditions): content lives in src/web/content. */

/** A run of text inside a paragraph or list item: plain, a link, or an emphasised lead-in. */
export type Inline = string | { text: string; href: string } | { strong: string };
export type RichText = string | readonly Inline[];

export type ContactRow = { label: string; value: string; href?: string };

export type PolicyBlock =
  | { kind: 'paragraph'; text: RichText }
  | { kind: 'list'; items: readonly RichText[] }
  | { kind: 'contact'; rows: readonly ContactRow[] };

export type PolicySection = { title: string; blocks: readonly PolicyBlock[] };

export type PolicyDocumentContent = {
  title: string;
  /** Shown under the title; the Privacy Policy and the Terms keep the date in docs/product.md §9. */
  lastUpdated?: string;
  intro: readonly RichText[];
  sections: readonly PolicySection[];
};

/** "Cookies & Tracking" → "cookies-and-tracking": stable anchors for the table of contents. */
export function sectionSlug(title: string): string {
  return title
    .toLowerCase()
    .replaceAll('&', 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
