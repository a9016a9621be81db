import { Injectable } from '@nestjs/common';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { EntityManager } from 'typeorm';
import { ConflictError } from '../../../shared/errors/domain-error';
import { assertLockVersion } from '../../../shared/concurrency/if-match';
import { DeviceFieldDefinitionEntity } from './device-field-definition.entity';
import { deviceFieldNotFound } from './device-field.reader';
import { DeviceTypeEntity } from './device-type.entity';
import { deviceTypeNotFound } from './device-type.reader';

/** At most 200 active fields per device type. */
export const MAX_ACTIVE_FIELDS = 200;

/** The devices migration's UNIQUE (tenant_id, key) and UNIQUE (device_type_id, key). */
const TYPE_KEY_CONSTRAINT = 'device_types_tenant_id_key_key';
const FIELD_KEY_CONSTRAINT = 'device_field_definitions_device_type_id_key_key';

export const duplicateTypeKey = () => new ConflictError('duplicate_key', 'A device type with this key already exists in the tenant.');
export const duplicateFieldKey = () =>
  new ConflictError('duplicate_key', 'The device type already has a field with this key (deprecated keys stay taken).');

/** Row access of the device-types API; every method runs on the command's transaction manager. */
@Injectable()
export class DeviceTypeRepository {
  async findType(manager: EntityManager, deviceTypeId: string): Promise<DeviceTypeEntity> {
    const type = await manager.findOneBy(DeviceTypeEntity, { deviceTypeId });
    if (!type) throw deviceTypeNotFound();
    return type;
  }

  /**
   * The type, locked until the end of the transaction, at the version `If-Match` named (else 409). Field
   * creation takes the same lock, so the active-field count it checks cannot move under it.
   */
  async lockType(manager: EntityManager, deviceTypeId: string, expectedLockVersion?: number): Promise<DeviceTypeEntity> {
    const type = await manager.findOne(DeviceTypeEntity, { where: { deviceTypeId }, lock: { mode: 'pessimistic_write' } });
    if (!type) throw deviceTypeNotFound();
    if (expectedLockVersion !== undefined) assertLockVersion(type.lockVersion, expectedLockVersion);
    return type;
  }

  async assertTypeKeyAvailable(manager: EntityManager, tenantId: string, key: string): Promise<void> {
    if (await manager.existsBy(DeviceTypeEntity, { tenantId, key })) throw duplicateTypeKey();
  }

  async findField(manager: EntityManager, deviceFieldDefinitionId: string): Promise<DeviceFieldDefinitionEntity> {
    const field = await manager.findOneBy(DeviceFieldDefinitionEntity, { deviceFieldDefinitionId });
    if (!field) throw deviceFieldNotFound();
    return field;
  }

  /** The field, locked until the end of the transaction, at the version `If-Match` named (else 409). */
  async lockField(manager: EntityManager, deviceFieldDefinitionId: string, expectedLockVersion: number): Promise<DeviceFieldDefinitionEntity> {
    const field = await manager.findOne(DeviceFieldDefinitionEntity, {
      where: { deviceFieldDefinitionId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!field) throw deviceFieldNotFound();
    assertLockVersion(field.lockVersion, expectedLockVersion);
    return field;
  }

  async assertFieldKeyAvailable(manager: EntityManager, deviceTypeId: string, key: string): Promise<void> {
    if (await manager.existsBy(DeviceFieldDefinitionEntity, { deviceTypeId, key })) throw duplicateFieldKey();
  }

  countActiveFields(manager: EntityManager, deviceTypeId: string): Promise<number> {
    return manager.countBy(DeviceFieldDefinitionEntity, { deviceTypeId, status: 'active' });
  }
}

/** A concurrent create that passed the key check still answers 409 `duplicate_key`, never 500. */
export const DEVICE_TYPE_CONSTRAINTS: ConstraintErrors = { [TYPE_KEY_CONSTRAINT]: duplicateTypeKey, [FIELD_KEY_CONSTRAINT]: duplicateFieldKey };
