import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { resolveParameters, type OverrideLevel } from '../../flows';
import type { JsonObject, JsonValue } from '../../flows/engine';
import type { PreparedFlowVersion } from './flow-version-loader';
import type { RoutedDevice } from './message-outcome';

/** The parameters live processing and replays run a version with: the stored overrides resolved per device. */
@Injectable()
export class DeviceParameterResolver {
  /** Each device's live parameters for `prepared`: device > device type > tenant override > declared default. */
  async parametersFor(manager: EntityManager, prepared: PreparedFlowVersion, devices: readonly RoutedDevice[]): Promise<Map<string, JsonObject>> {
    const result = new Map<string, JsonObject>();
    if (prepared.declarations.length === 0) {
      for (const device of devices) result.set(device.deviceId, {});
      return result;
    }
    const rows = await manager.query<{ level: OverrideLevel; device_id: string | null; key: string; value: unknown }[]>(
      `SELECT level, device_id, key, value FROM flow_parameter_overrides
        WHERE tenant_id = $1 AND key = ANY ($2::varchar[])
          AND (level = 'tenant' OR (level = 'device_type' AND device_type_id = $3) OR (level = 'device' AND device_id = ANY ($4::uuid[])))`,
      [prepared.tenantId, prepared.declarations.map((d) => d.key), prepared.deviceTypeId, devices.map((d) => d.deviceId)],
    );
    for (const device of devices) {
      const applicable = rows.filter((row) => row.level !== 'device' || row.device_id === device.deviceId);
      const resolved = resolveParameters(prepared.declarations, applicable);
      result.set(device.deviceId, Object.fromEntries(resolved.map((p) => [p.key, p.value as JsonValue])));
    }
    return result;
  }
}
