import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { canonicalTargets, DeviceFieldDefinitionEntity } from '../persistence/device-field-definition.entity';
import { DeviceFieldReader } from '../persistence/device-field.reader';
import { DeviceFieldResponse } from '../dto/device-field.response.dto';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeRepository } from '../persistence/device-type.repository';
import { UpdateDeviceFieldCommand } from './update-device-field.command';

type ChangedField = 'name' | 'description' | 'unit' | 'storageTargets';

/**
 * Change an active field's name, description, unit or storage targets. Deprecated fields are
 * terminal (409 `invalid_state`, after If-Match). Like device types, every successful PATCH is a new version.
 */
@CommandHandler(UpdateDeviceFieldCommand)
export class UpdateDeviceFieldHandler implements ICommandHandler<UpdateDeviceFieldCommand, DeviceFieldResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceTypeReader,
    private readonly fields: DeviceFieldReader,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, deviceTypeId, key, expectedLockVersion, changes }: UpdateDeviceFieldCommand): Promise<DeviceFieldResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceTypeId);
    const found = await this.fields.getByKey(deviceTypeId, key);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const field = await this.types.lockField(tx.manager, found.deviceFieldDefinitionId, expectedLockVersion);
      if (field.status !== 'active') {
        throw new ConflictError('invalid_state', 'A deprecated field cannot change.', { currentStatus: field.status });
      }
      const next = {
        name: changes.name,
        description: changes.description,
        unit: changes.unit,
        storageTargets: changes.storageTargets && canonicalTargets(changes.storageTargets),
      };
      const changed: ChangedField[] = [];
      if (next.name !== undefined && next.name !== field.name) changed.push('name');
      if (next.description !== undefined && next.description !== field.description) changed.push('description');
      if (next.unit !== undefined && next.unit !== field.unit) changed.push('unit');
      if (next.storageTargets && next.storageTargets.join(',') !== field.storageTargets.join(',')) changed.push('storageTargets');

      await tx.manager.update(
        DeviceFieldDefinitionEntity,
        { deviceFieldDefinitionId: field.deviceFieldDefinitionId },
        {
          ...Object.fromEntries(changed.map((name) => [name, next[name]])),
          lockVersion: field.lockVersion + 1,
          updatedAt: () => 'clock_timestamp()',
        },
      );
      await tx.audit({
        eventType: 'device_field.updated',
        action: 'update',
        entityType: 'device_field',
        entityId: field.deviceFieldDefinitionId,
        tenantId: field.tenantId,
        metadata: {
          deviceTypeId,
          key: field.key,
          changedFields: changed,
          ...(changed.includes('name') ? { name: { before: field.name, after: next.name } } : {}),
          ...(changed.includes('storageTargets') ? { storageTargets: { before: field.storageTargets, after: next.storageTargets } } : {}),
          lockVersion: { before: field.lockVersion, after: field.lockVersion + 1 },
        },
      });
      return DeviceFieldResponse.of(await this.types.findField(tx.manager, field.deviceFieldDefinitionId));
    });
  }
}
