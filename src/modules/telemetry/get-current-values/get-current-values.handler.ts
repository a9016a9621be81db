import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceFieldDefinitionEntity } from '../../device-types/domain/device-field-definition.entity';
import { DeviceFieldResponse } from '../../device-types/domain/device-field.response.dto';
import { DeviceReader, resolveDeviceSql } from '../../devices/domain/device.reader';
import { CurrentValuesResponse } from './current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values.query';

/** A field as the statement's JSON gives it: its columns under their entity names (timestamps as text), its value. */
interface FieldJson {
  deviceFieldDefinitionId: string;
  tenantId: string;
  deviceTypeId: string;
  key: string;
  name: string;
  description: string | null;
  schemaRef: string;
  unit: string | null;
  storageTargets: DeviceFieldDefinitionEntity['storageTargets'];
  measurementType: DeviceFieldDefinitionEntity['measurementType'];
  status: DeviceFieldDefinitionEntity['status'];
  lockVersion: number;
  createdAt: string;
  updatedAt: string;
  deprecatedAt: string | null;
  currentValue: unknown;
}

/**
 * Every active field of the device `d`'s type with its stored value, as one JSON array in field order; read in
 * the same round trip as the device (this endpoint is on the hot path, bench:devices).
 */
export const FIELDS_WITH_VALUES_SQL = `(
  SELECT coalesce(json_agg(json_build_object(
           'deviceFieldDefinitionId', f.device_field_definition_id, 'tenantId', f.tenant_id, 'deviceTypeId', f.device_type_id,
           'key', f.key, 'name', f.name, 'description', f.description, 'schemaRef', f.schema_ref, 'unit', f.unit,
           'storageTargets', f.storage_targets, 'measurementType', f.measurement_type, 'status', f.status,
           'lockVersion', f.lock_version, 'createdAt', f.created_at, 'updatedAt', f.updated_at, 'deprecatedAt', f.deprecated_at,
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
    const { access, device, current, extra } = await this.devices.resolve<FieldJson[]>(
      caller.principal,
      deviceId,
      undefined,
      FIELDS_WITH_VALUES_SQL,
    );
    access.require(caller.permission, this.devices.target(current));
    return {
      tenantId: device.tenantId,
      deviceId: device.deviceId,
      deviceTypeId: device.deviceTypeId,
      fields: extra.map(({ currentValue, createdAt, updatedAt, deprecatedAt, ...field }) => ({
        definition: DeviceFieldResponse.of(
          Object.assign(new DeviceFieldDefinitionEntity(), field, {
            createdAt: new Date(createdAt),
            updatedAt: new Date(updatedAt),
            deprecatedAt: deprecatedAt === null ? null : new Date(deprecatedAt),
          }),
        ),
        currentValue: currentValue ?? null,
      })),
    };
  }
}
