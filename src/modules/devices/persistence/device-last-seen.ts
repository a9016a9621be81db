import type { EntityManager } from 'typeorm';

/** A device seen in a processed uplink, and when that uplink was received. */
export interface DeviceSighting {
  deviceId: string;
  receivedAt: Date;
}

/**
 * Records each device's `last_seen_at` for one processing batch, in the caller's transaction: one statement for the
 * whole batch, one row per device (its latest receipt time in the batch). A time never moves backwards (an older message processed late leaves
 * a newer value in place), and `updated_at` is not touched: this records traffic, not a change made through the API.
 */
export async function recordDevicesLastSeen(manager: EntityManager, sightings: Iterable<DeviceSighting>): Promise<void> {
  const latest = new Map<string, number>();
  for (const { deviceId, receivedAt } of sightings) {
    const at = receivedAt.getTime();
    if (!(latest.get(deviceId)! >= at)) latest.set(deviceId, at);
  }
  if (latest.size === 0) return;
  const ids = [...latest.keys()];
  await manager.query(
    `UPDATE devices d SET last_seen_at = u.seen_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS u(device_id, seen_at)
      WHERE d.device_id = u.device_id AND (d.last_seen_at IS NULL OR d.last_seen_at < u.seen_at)`,
    [ids, ids.map((id) => new Date(latest.get(id)!).toISOString())],
  );
}
