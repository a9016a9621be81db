import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceReader, resolveDeviceSql } from '../../devices';
import { CurrentValueEntry, CurrentValuesResponse } from '../dto/current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values.query';

/** A timestamp as `Date#toISOString` writes it (UTC, milliseconds: the column's precision). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Every active field of the device `d`'s type with its stored value, as one JSON array in field order, already in
 * the shape of the answer's `fields` (the API record "Device field definition" under `definition`, `currentValue`
 * null until the first storage): read in the same round trip as the device and passed through as parsed (this
 * endpoint is on the hot path, bench:devices).
 */
export const FIELDS_WITH_VALUES_SQL = `(
  SELECT coalesce(json_agg(json_build_object(
           'definition', json_build_object(
             'deviceFieldDefinitionId', f.device_field_definition_id, 'tenantId', f.tenant_id, 'deviceTypeId', f.device_type_id,
             'key', f.key, 'name', f.name, 'description', f.description, 'schemaRef', f.schema_ref, 'unit', f.unit,
             'storageTargets', f.storage_targets, 'measurementType', f.measurement_type, 'status', f.status,
             'lockVersion', f.lock_version, 'createdAt', ${iso('f.created_at')}, 'updatedAt', ${iso('f.updated_at')},
             'deprecatedAt', ${iso('f.deprecated_at')}),
           'currentValue', cv.value) ORDER BY f.created_at, f.device_field_definition_id), '[]'::json)
    FROM device_field_definitions f
    LEFT JOIN device_current_values cv ON cv.device_id = d.device_id AND cv.field_no = f.field_no
   WHERE f.device_type_id = d.device_type_id AND f.status = 'active')`;

/** The whole statement (`$1`: the device id), for EXPLAIN in bench:devices. */
export const CURRENT_VALUES_SQL = resolveDeviceSql(FIELDS_WITH_VALUES_SQL);

/**
 * The API record "Current value entry": every active field of the device's type with its stored value (null until the
 * first storage; always null for a timeseries-only field). A device the caller sees is seen with its current
 * values. The device, its scope and its fields with values come in one indexed query.
 */
@QueryHandler(GetCurrentValuesQuery)
export class GetCurrentValuesHandler implements IQueryHandler<GetCurrentValuesQuery, CurrentValuesResponse> {
  constructor(private readonly devices: DeviceReader) {}

  async execute({ caller, deviceId }: GetCurrentValuesQuery): Promise<CurrentValuesResponse> {
    const { access, device, current, extra } = await this.devices.resolve<CurrentValueEntry[]>(
      caller.principal,
      deviceId,
      undefined,
      FIELDS_WITH_VALUES_SQL,
    );
    access.require(caller.permission, this.devices.target(current));
    return { tenantId: device.tenantId, deviceId: device.deviceId, deviceTypeId: device.deviceTypeId, fields: extra };
  }
}
