/** A PostgreSQL regular expression that matches `text` literally (for replacing an address inside stored text). */
export const literalPattern = (text: string) => text.replace(/[.^$*+?()[\]{}|\\-]/g, (char) => `\\${char}`);
