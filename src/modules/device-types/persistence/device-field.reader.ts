import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeviceFieldDefinitionEntity } from './device-field-definition.entity';

/** The 404 of a field key the device type does not have (any status). */
export const deviceFieldNotFound = () => new ResourceNotFoundError('device_field');

/**
 * Reads a device type's field definitions, for this and other modules (telemetry, flows). Every list comes in
 * the API's order, (createdAt, id) ascending. None of these check access: resolve the device type first.
 */
@Injectable()
export class DeviceFieldReader {
  constructor(private readonly dataSource: DataSource) {}

  /** Active and deprecated fields of the type. */
  all(deviceTypeId: string, manager: EntityManager = this.dataSource.manager): Promise<DeviceFieldDefinitionEntity[]> {
    return manager.find(DeviceFieldDefinitionEntity, {
      where: { deviceTypeId },
      order: { createdAt: 'ASC', deviceFieldDefinitionId: 'ASC' },
    });
  }

  /** One field (any status) of the type, or 404 `device_field`. */
  async getByKey(deviceTypeId: string, key: string, manager: EntityManager = this.dataSource.manager): Promise<DeviceFieldDefinitionEntity> {
    const field = await manager.findOneBy(DeviceFieldDefinitionEntity, { deviceTypeId, key });
    if (!field) throw deviceFieldNotFound();
    return field;
  }
}
