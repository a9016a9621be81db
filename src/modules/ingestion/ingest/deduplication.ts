/**
 * Deduplication of uplinks, all of it: how a message's key is derived from what its network server sends, the
 * scope a key repeats in, the claim that decides (in the store statement) which message holds a key, and when a
 * claim expires and is deleted.
 *
 * A key is claimed for DEDUP_WINDOW_HOURS from the receipt of the message holding it. A repeat inside the window
 * is answered with the original's id (`duplicate: true`) and not stored; after it, the key is taken over by the
 * next message carrying it. Messages without a key are never duplicates.
 */

/** How long a claimed key makes repeats duplicates. */
export const DEDUP_WINDOW_HOURS = 24;

/** The key column's length: longer keys are cut, so a long id never makes a row unstorable. */
const MAX_KEY_LENGTH = 300;

const cut = (key: string) => key.slice(0, MAX_KEY_LENGTH);

/** The scope a key repeats in: the delivering credential's tenant (`tenant:<uuid>`), else `platform` (platform credentials, MQTT). */
export function dedupScope(tenantId: string | null): string {
  return tenantId ? `tenant:${tenantId}` : 'platform';
}

/** ChirpStack v4: its `deduplicationId` (one per uplink across gateways). */
export function chirpStackDedupKey(deduplicationId: string | null): string | null {
  return deduplicationId === null ? null : cut(`chirpstack:${deduplicationId}`);
}

/** The Things Stack: the application server's `as:up:` correlation id; else devEui + f_cnt + the receive time; else none. */
export function ttsDedupKey(body: Record<string, unknown>, uplink: Record<string, unknown>, devEui: string, fCnt: number, received: Date | null): string | null {
  for (const list of [body.correlation_ids, uplink.correlation_ids]) {
    if (!Array.isArray(list)) continue;
    const id = list.find((value): value is string => typeof value === 'string' && value.startsWith('as:up:') && value.length > 6);
    if (id) return cut(`tts:${id}`);
  }
  return received ? `tts:${devEui}:${fCnt}:${received.toISOString()}` : null;
}

/** Uplink's own HTTP and MQTT body: the sender's optional `messageId` (1..128 characters). */
export function httpDedupKey(messageId: unknown): string | null {
  return typeof messageId === 'string' ? `http:${messageId}` : null;
}

/** One (scope, key) pair as a map key (repeats inside one batch share the first one's outcome). */
export function dedupMapKey(scope: string, key: string): string {
  return `${scope}\u0000${key}`;
}

const EXPIRED = 'ingestion_dedup_keys.expires_at <= EXCLUDED.raw_received_at';

/**
 * The claim, a CTE of the store statement: `$1..$4` are the scopes, keys, message ids and receipt times of the
 * batch's keyed messages, `guard` a condition that must be evaluated first (the receipt locks). Each key is claimed
 * by an `INSERT ... ON CONFLICT`, so PostgreSQL decides, not a read-then-write: an unexpired claim stays with its
 * holder, an expired one is taken over in the same statement, and a key claimed by a concurrent transaction makes
 * this one wait for it, then see it. Returns, for every key, the message that holds it: the claimant or the original.
 */
export const dedupClaimSql = (guard: string) => `
  INSERT INTO ingestion_dedup_keys (dedup_scope, dedup_key, raw_ingestion_message_id, raw_received_at, expires_at)
  SELECT s, k, id, r, r + make_interval(hours => ${DEDUP_WINDOW_HOURS})
    FROM unnest($1::text[], $2::text[], $3::uuid[], $4::timestamptz[]) AS t(s, k, id, r)
   WHERE ${guard}
  ON CONFLICT (dedup_scope, dedup_key) DO UPDATE
    SET raw_ingestion_message_id = CASE WHEN ${EXPIRED} THEN EXCLUDED.raw_ingestion_message_id ELSE ingestion_dedup_keys.raw_ingestion_message_id END,
        raw_received_at = CASE WHEN ${EXPIRED} THEN EXCLUDED.raw_received_at ELSE ingestion_dedup_keys.raw_received_at END,
        expires_at = CASE WHEN ${EXPIRED} THEN EXCLUDED.expires_at ELSE ingestion_dedup_keys.expires_at END
  RETURNING dedup_scope, dedup_key, raw_ingestion_message_id, raw_received_at`;

/** A holder row the claim returns. */
export interface DedupHolder {
  dedup_scope: string;
  dedup_key: string;
  raw_ingestion_message_id: string;
  raw_received_at: Date;
}

/**
 * Expiry: a claim whose `expires_at` has passed (inclusive) no longer dedups anything (a new message with the key
 * takes it over), so the retention sweep deletes it; claims are never reused after that.
 */
export const DEDUP_EXPIRY = { table: 'ingestion_dedup_keys', column: 'expires_at', inclusive: true } as const;
