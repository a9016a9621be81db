import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A non-retired device holding a devEui, in any tenant. */
export interface DevEuiHolder {
  deviceId: string;
  tenantId: string;
  deviceTypeId: string;
  devEui: string;
  name: string;
}

/** A new device of a bulk create: `active`, unassigned. */
export interface NewDevice {
  deviceId: string;
  deviceTypeId: string;
  devEui: string;
  name: string;
  metadata: Record<string, string>;
}

/**
 * Many devices of one tenant at once, on the caller's transaction (the bulk import): one statement per call,
 * whatever the number of rows. Auditing the created rows is the caller's job.
 */
@Injectable()
export class DeviceBulkStore {
  /** The non-retired devices of all tenants holding one of these devEuis (a devEui is unique among them). */
  async findHolders(manager: EntityManager, devEuis: readonly string[]): Promise<DevEuiHolder[]> {
    if (devEuis.length === 0) return [];
    return manager.query<DevEuiHolder[]>(
      `SELECT device_id AS "deviceId", tenant_id AS "tenantId", device_type_id AS "deviceTypeId", dev_eui AS "devEui", name
         FROM devices WHERE dev_eui = ANY($1::text[]) AND status <> 'retired'`,
      [devEuis],
    );
  }

  /**
   * Inserts the devices whose devEui is still free among non-retired devices and returns the devEuis it inserted:
   * a devEui taken meanwhile by another transaction (committed, or waited for until it commits) is skipped, never an
   * error, so a concurrent device creation never turns the caller's transaction into a failure.
   */
  async insertNew(manager: EntityManager, tenantId: string, devices: readonly NewDevice[]): Promise<Set<string>> {
    if (devices.length === 0) return new Set();
    const rows = await manager.query<{ dev_eui: string }[]>(
      `INSERT INTO devices (device_id, tenant_id, device_type_id, dev_eui, name, metadata)
       SELECT d.id, $1, d.type_id, d.dev_eui, d.name, d.metadata
         FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::jsonb[]) AS d(id, type_id, dev_eui, name, metadata)
       ON CONFLICT (dev_eui) WHERE status <> 'retired' DO NOTHING
       RETURNING dev_eui`,
      [
        tenantId,
        devices.map((device) => device.deviceId),
        devices.map((device) => device.deviceTypeId),
        devices.map((device) => device.devEui),
        devices.map((device) => device.name),
        devices.map((device) => JSON.stringify(device.metadata)),
      ],
    );
    return new Set(rows.map((row) => row.dev_eui));
  }
}
