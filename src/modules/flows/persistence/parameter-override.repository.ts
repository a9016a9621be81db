import { Injectable, PipeTransform } from '@nestjs/common';
import { Param } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { FlowEntity } from './flow.entity';
import { OverrideLevel } from './flow-parameter-override.entity';
import { PARAMETER_KEY_PATTERN, ParameterDeclaration, valueFitsType } from '../domain/graph/flow-graph';

export const overrideNotFound = () => new ResourceNotFoundError('flow_parameter_override');
export const deviceNotFound = () => new ResourceNotFoundError('device');

/** `:key` of an override path: a parameter key, else 400 `params.key`. */
export class ParameterKeyPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (typeof value !== 'string' || !PARAMETER_KEY_PATTERN.test(value)) {
      throw ValidationFailedError.single('params.key', 'pattern', `A parameter key matches ${PARAMETER_KEY_PATTERN.source}.`);
    }
    return value;
  }
}

export const ParameterKeyParam = (): ParameterDecorator => Param('key', ParameterKeyPipe);

/** Where an override lives: its level and, below tenant level, the flow's device type and the device. */
export interface OverrideTarget {
  level: OverrideLevel;
  deviceId: string | null;
}

/** Parameter declarations and overrides as the flows API reads them. */
@Injectable()
export class ParameterOverrideRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A device of the flow's device type in the flow's tenant, or null. */
  async deviceOfFlow(flow: FlowEntity, deviceId: string): Promise<{ deviceId: string } | null> {
    const [row] = await this.dataSource.query<{ device_id: string }[]>(
      `SELECT device_id FROM devices WHERE device_id = $1 AND tenant_id = $2 AND device_type_id = $3`,
      [deviceId, flow.tenantId, flow.deviceTypeId],
    );
    return row ? { deviceId: row.device_id } : null;
  }

  /** The declaration of `key` in the newest version of the flow that declares it. */
  async newestDeclaration(manager: EntityManager, flowId: string, key: string): Promise<ParameterDeclaration | null> {
    const [row] = await manager.query<{ declaration: ParameterDeclaration }[]>(
      `SELECT d AS declaration FROM flow_versions v, jsonb_array_elements(v.parameters) d
        WHERE v.flow_id = $1 AND d->>'key' = $2 ORDER BY v.version_number DESC LIMIT 1`,
      [flowId, key],
    );
    return row?.declaration ?? null;
  }

  /** 400 unless a version of the flow declares `key` and `value` has the newest declaration's type. */
  async assertSettable(manager: EntityManager, flowId: string, key: string, value: unknown): Promise<void> {
    const declaration = await this.newestDeclaration(manager, flowId, key);
    if (!declaration) throw ValidationFailedError.single('params.key', 'undeclared_parameter', `No version of this flow declares parameter "${key}".`);
    if (!valueFitsType(declaration.type, value)) {
      throw ValidationFailedError.single('body.value', 'type', `Parameter "${key}" is a ${declaration.type} (newest declaration).`);
    }
  }
}
