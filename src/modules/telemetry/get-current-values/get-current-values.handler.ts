import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DeviceFieldDefinitionEntity } from '../../device-types/domain/device-field-definition.entity';
import { DeviceFieldResponse } from '../../device-types/domain/device-field.response.dto';
import { DeviceReader } from '../../devices/domain/device.reader';
import { CurrentValuesResponse } from './current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values.query';

/** The field columns under their entity property names, and the stored value (jsonb, parsed by the driver). */
type FieldRow = Omit<DeviceFieldDefinitionEntity, 'fieldNo'> & { current_value: unknown };

// Plain SQL rather than a query builder: this endpoint is on the hot path (design §5.9, bench:devices).
export const CURRENT_VALUES_SQL = `
  SELECT f.device_field_definition_id AS "deviceFieldDefinitionId", f.tenant_id AS "tenantId", f.device_type_id AS "deviceTypeId",
         f.key, f.name, f.description, f.schema_ref AS "schemaRef", f.unit, f.storage_targets AS "storageTargets",
         f.measurement_type AS "measurementType", f.status, f.lock_version AS "lockVersion", f.created_at AS "createdAt",
         f.updated_at AS "updatedAt", f.deprecated_at AS "deprecatedAt", cv.value AS current_value
    FROM device_field_definitions f
    LEFT JOIN device_current_values cv ON cv.device_id = $1 AND cv.field_no = f.field_no
   WHERE f.device_type_id = $2 AND f.status = 'active'
   ORDER BY f.created_at, f.device_field_definition_id`;

/**
 * Spec "Current value entry": every active field of the device's type with its stored value (null until the
 * first storage; always null for a timeseries-only field). A device the caller sees is seen with its current
 * values (design §3 "Devices"). Fields and values come in one indexed query.
 */
@QueryHandler(GetCurrentValuesQuery)
export class GetCurrentValuesHandler implements IQueryHandler<GetCurrentValuesQuery, CurrentValuesResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceReader,
  ) {}

  async execute({ caller, deviceId }: GetCurrentValuesQuery): Promise<CurrentValuesResponse> {
    const { access, device, current } = await this.devices.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.devices.target(current));

    const rows = (await this.dataSource.query(CURRENT_VALUES_SQL, [deviceId, device.deviceTypeId])) as FieldRow[];
    return {
      tenantId: device.tenantId,
      deviceId: device.deviceId,
      deviceTypeId: device.deviceTypeId,
      fields: rows.map(({ current_value, ...field }) => ({
        definition: DeviceFieldResponse.of(Object.assign(new DeviceFieldDefinitionEntity(), field)),
        currentValue: current_value ?? null,
      })),
    };
  }
}
