import { v7 } from 'uuid';

/**
 * A UUID (version 7: the first 48 bits are the creation time in milliseconds, the rest random) for the rows of
 * the tables written once per uplink (raw messages, flow executions). Ids in creation order make each insert add
 * to the right edge of the primary-key index instead of a random leaf page: fewer pages dirtied per batch, fewer
 * full-page images in the WAL after each checkpoint, and an index whose hot part stays in memory however large the
 * table grows. The ids stay opaque UUIDs to clients; nothing may read a time out of them.
 */
export function timeOrderedId(): string {
  return v7();
}
