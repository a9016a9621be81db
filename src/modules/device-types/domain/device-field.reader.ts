import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
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

  /** Active fields of the type only. */
  active(deviceTypeId: string, manager: EntityManager = this.dataSource.manager): Promise<DeviceFieldDefinitionEntity[]> {
    return manager.find(DeviceFieldDefinitionEntity, {
      where: { deviceTypeId, status: 'active' },
      order: { createdAt: 'ASC', deviceFieldDefinitionId: 'ASC' },
    });
  }

  /** The type's fields (any status) among `keys`; unknown keys are simply absent from the result. */
  byKeys(
    deviceTypeId: string,
    keys: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<DeviceFieldDefinitionEntity[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return manager.find(DeviceFieldDefinitionEntity, {
      where: { deviceTypeId, key: In([...new Set(keys)]) },
      order: { createdAt: 'ASC', deviceFieldDefinitionId: 'ASC' },
    });
  }

  /** One field (any status) of the type, or null. */
  findByKey(deviceTypeId: string, key: string, manager: EntityManager = this.dataSource.manager): Promise<DeviceFieldDefinitionEntity | null> {
    return manager.findOneBy(DeviceFieldDefinitionEntity, { deviceTypeId, key });
  }

  /** One field (any status) of the type, or 404 `device_field`. */
  async getByKey(deviceTypeId: string, key: string, manager: EntityManager = this.dataSource.manager): Promise<DeviceFieldDefinitionEntity> {
    const field = await this.findByKey(deviceTypeId, key, manager);
    if (!field) throw deviceFieldNotFound();
    return field;
  }
}
