import { randomBytes } from 'node:crypto';
import type { SeededTenant, SeededUnit } from './tenancy';
import type { TestApp } from './test-app';

/*
 * Direct-to-database seeding of the device catalog and devices, for tests of other modules (each API has its own
 * e2e suite that goes through HTTP).
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** A random devEui in the API's form (16 uppercase hex digits). */
export const randomDevEui = (): string => randomBytes(8).toString('hex').toUpperCase();

export interface SeededDeviceType {
  deviceTypeId: string;
  key: string;
}

export async function seedDeviceType(
  t: TestApp,
  tenant: SeededTenant,
  overrides: { key?: string; status?: 'active' | 'disabled' } = {},
): Promise<SeededDeviceType> {
  const key = overrides.key ?? unique('type');
  const [row] = await t.dataSource.query<{ device_type_id: string }[]>(
    `INSERT INTO device_types (tenant_id, key, name, status) VALUES ($1, $2, $3, $4) RETURNING device_type_id`,
    [tenant.tenantId, key, `Type ${key}`, overrides.status ?? 'active'],
  );
  return { deviceTypeId: row!.device_type_id, key };
}

export type SchemaKind = 'number' | 'string' | 'boolean' | 'json';

export interface SeededField {
  deviceFieldDefinitionId: string;
  fieldNo: number;
  key: string;
}

export async function seedField(
  t: TestApp,
  tenant: SeededTenant,
  type: SeededDeviceType,
  overrides: { key?: string; kind?: SchemaKind; targets?: ('current' | 'timeseries')[]; status?: 'active' | 'deprecated' } = {},
): Promise<SeededField> {
  const key = overrides.key ?? unique('field').replace(/^[^a-z]+/, 'f');
  const status = overrides.status ?? 'active';
  const [row] = await t.dataSource.query<{ device_field_definition_id: string; field_no: number }[]>(
    `INSERT INTO device_field_definitions
       (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type, status, deprecated_at)
     VALUES ($1, $2, $3, $4, $5, $6::text[], 'gauge', $7::varchar, CASE WHEN $7::varchar = 'deprecated' THEN clock_timestamp() END)
     RETURNING device_field_definition_id, field_no`,
    [
      tenant.tenantId,
      type.deviceTypeId,
      key,
      `Field ${key}`,
      `platform://schemas/${overrides.kind ?? 'number'}/v1`,
      overrides.targets ?? ['current', 'timeseries'],
      status,
    ],
  );
  return { deviceFieldDefinitionId: row!.device_field_definition_id, fieldNo: row!.field_no, key };
}

export interface SeededDevice {
  deviceId: string;
  devEui: string;
}

/** A device, assigned to `unit` from `validFrom` (default: an hour ago) when one is given. */
export async function seedDevice(
  t: TestApp,
  tenant: SeededTenant,
  type: SeededDeviceType,
  unit: SeededUnit | null = null,
  overrides: { devEui?: string; name?: string; status?: 'active' | 'disabled' | 'retired'; validFrom?: Date } = {},
): Promise<SeededDevice> {
  const devEui = overrides.devEui ?? randomDevEui();
  const status = overrides.status ?? 'active';
  const [row] = await t.dataSource.query<{ device_id: string }[]>(
    `INSERT INTO devices (tenant_id, device_type_id, dev_eui, name, status, retired_at)
     VALUES ($1, $2, $3, $4, $5::varchar, CASE WHEN $5::varchar = 'retired' THEN clock_timestamp() END) RETURNING device_id`,
    [tenant.tenantId, type.deviceTypeId, devEui, overrides.name ?? `Device ${devEui}`, status],
  );
  const device = { deviceId: row!.device_id, devEui };
  if (unit) await seedAssignment(t, tenant, device, unit, overrides.validFrom ?? new Date(Date.now() - 3600_000));
  return device;
}

/** A period of `device` in `unit`; open unless `validTo` is given. Closing the open period first is the caller's job. */
export async function seedAssignment(
  t: TestApp,
  tenant: SeededTenant,
  device: SeededDevice,
  unit: SeededUnit,
  validFrom: Date,
  validTo: Date | null = null,
): Promise<string> {
  const [row] = await t.dataSource.query<{ device_assignment_id: string }[]>(
    `INSERT INTO device_assignments (tenant_id, device_id, organization_unit_id, valid_from, valid_to)
     VALUES ($1, $2, $3, $4, $5) RETURNING device_assignment_id`,
    [tenant.tenantId, device.deviceId, unit.organizationUnitId, validFrom, validTo],
  );
  return row!.device_assignment_id;
}
