/**
 * A LIKE/ILIKE pattern matching `text` anywhere, with `%`, `_` and the escape character taken literally.
 * Use it with `ESCAPE '\'`: `lower(name) LIKE :pattern ESCAPE '\'` or `name ILIKE :pattern ESCAPE '\'`.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
