/** Truncates to at most `words` words, adding "..." when anything was cut (spec: 20 / 40 / 30 words). */
export function truncateWords(text: string, words: number): { text: string; truncated: boolean } {
  const parts = text.trim().split(/\s+/);
  if (parts.length <= words) return { text: text.trim(), truncated: false };
  return { text: `${parts.slice(0, words).join(' ')}...`, truncated: true };
}
