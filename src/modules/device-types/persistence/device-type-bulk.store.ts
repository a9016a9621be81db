import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { DeviceTypeStatus } from './device-type.entity';

/** A device type as a bulk writer needs it: id, key and status. */
export interface DeviceTypeKeyRow {
  deviceTypeId: string;
  key: string;
  status: DeviceTypeStatus;
}

/** A new device type of a bulk create: `active`, lockVersion 1. */
export interface NewDeviceType {
  deviceTypeId: string;
  key: string;
  name: string;
  description: string;
}

/**
 * Many device types of one tenant at once, on the caller's transaction (the bulk import): one statement per call,
 * whatever the number of rows. Auditing the created rows is the caller's job.
 */
@Injectable()
export class DeviceTypeBulkStore {
  /**
   * The tenant's types with these keys, locked FOR SHARE until the end of the transaction: a concurrent disable
   * waits until the devices created on an active type exist (as for a single device creation).
   */
  async findByKeys(manager: EntityManager, tenantId: string, keys: readonly string[]): Promise<DeviceTypeKeyRow[]> {
    if (keys.length === 0) return [];
    return manager.query<DeviceTypeKeyRow[]>(
      `SELECT device_type_id AS "deviceTypeId", key, status FROM device_types WHERE tenant_id = $1 AND key = ANY($2::text[]) FOR SHARE`,
      [tenantId, keys],
    );
  }

  /**
   * Inserts the types whose key is still free and returns the keys it inserted: a key taken meanwhile by another
   * transaction (committed, or waited for until it commits) is skipped, never an error.
   */
  async insertNew(manager: EntityManager, tenantId: string, types: readonly NewDeviceType[]): Promise<Set<string>> {
    if (types.length === 0) return new Set();
    const rows = await manager.query<{ key: string }[]>(
      `INSERT INTO device_types (device_type_id, tenant_id, key, name, description)
       SELECT t.id, $1, t.key, t.name, t.description
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[]) AS t(id, key, name, description)
       ON CONFLICT (tenant_id, key) DO NOTHING
       RETURNING key`,
      [tenantId, types.map((type) => type.deviceTypeId), types.map((type) => type.key), types.map((type) => type.name), types.map((type) => type.description)],
    );
    return new Set(rows.map((row) => row.key));
  }
}
