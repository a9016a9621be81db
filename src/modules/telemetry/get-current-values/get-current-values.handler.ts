import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceFieldResponse, fieldContractVersionSql, FieldContractReader, type DeviceFieldDefinitionEntity } from '../../device-types';
import { DeviceReader, resolveDeviceSql } from '../../devices';
import { CurrentValueEntry, CurrentValuesResponse } from '../dto/current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values.query';

/** A timestamp as `Date#toISOString` writes it (UTC, milliseconds: the column's precision). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The device `d`'s stored current values as one JSON object (fieldNo -> value and its `observedAt`) and its type's
 * field contract version, read in the same round trip as the device: the field definitions come from the cached
 * contract at that version (this endpoint is on the hot path, bench:devices).
 */
export const VALUES_SQL = `json_build_object(
    'version', ${fieldContractVersionSql('d.device_type_id')},
    'values', (SELECT coalesce(json_object_agg(cv.field_no, json_build_object('value', cv.value, 'observedAt', ${iso('cv.observed_at')})), '{}'::json)
                 FROM device_current_values cv WHERE cv.device_id = d.device_id))`;

/** The whole statement (`$1`: the device id), for EXPLAIN in bench:devices. */
export const CURRENT_VALUES_SQL = resolveDeviceSql(VALUES_SQL);

/**
 * The API record "Current value entry": every active field of the device's type with its stored value (null until the
 * first storage; always null for a timeseries-only field). A device the caller sees is seen with its current
 * values. The device, its scope, its values and its type's contract version come in one indexed query; the
 * fields from the field contract (cached; read again only when the version moved).
 */
@QueryHandler(GetCurrentValuesQuery)
export class GetCurrentValuesHandler implements IQueryHandler<GetCurrentValuesQuery, CurrentValuesResponse> {
  constructor(
    private readonly devices: DeviceReader,
    private readonly contracts: FieldContractReader,
  ) {}

  async execute({ caller, deviceId }: GetCurrentValuesQuery): Promise<CurrentValuesResponse> {
    const { access, device, current, extra } = await this.devices.resolve<{ version: string; values: Record<string, { value: unknown; observedAt: string | null }> }>(
      caller.principal,
      deviceId,
      undefined,
      VALUES_SQL,
    );
    access.require(caller.permission, this.devices.target(current));
    const contract = await this.contracts.at(device.deviceTypeId, extra.version);
    const fields: CurrentValueEntry[] = [];
    for (const field of contract.fields) {
      if (field.status !== 'active') continue;
      const stored = extra.values[field.fieldNo];
      fields.push({ definition: DeviceFieldResponse.of(field as DeviceFieldDefinitionEntity), currentValue: stored?.value ?? null, observedAt: stored?.observedAt ?? null });
    }
    return { tenantId: device.tenantId, deviceId: device.deviceId, deviceTypeId: device.deviceTypeId, fields };
  }
}
