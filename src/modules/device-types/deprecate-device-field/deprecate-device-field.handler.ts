import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceFieldDefinitionEntity } from '../persistence/device-field-definition.entity';
import { DeviceFieldReader } from '../persistence/device-field.reader';
import { DeviceFieldResponse } from '../dto/device-field.response.dto';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeRepository } from '../persistence/device-type.repository';
import { DeprecateDeviceFieldCommand } from './deprecate-device-field.command';

/** Spec: `active` → `deprecated` (terminal); history kept, `deprecatedAt` set, new ETag; the key stays taken. */
@CommandHandler(DeprecateDeviceFieldCommand)
export class DeprecateDeviceFieldHandler implements ICommandHandler<DeprecateDeviceFieldCommand, DeviceFieldResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceTypeReader,
    private readonly fields: DeviceFieldReader,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, deviceTypeId, key, expectedLockVersion }: DeprecateDeviceFieldCommand): Promise<DeviceFieldResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceTypeId);
    const found = await this.fields.getByKey(deviceTypeId, key);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const field = await this.types.lockField(tx.manager, found.deviceFieldDefinitionId, expectedLockVersion);
      if (field.status !== 'active') {
        throw new ConflictError('invalid_state', 'The field is already deprecated.', { currentStatus: field.status });
      }
      await tx.manager.update(
        DeviceFieldDefinitionEntity,
        { deviceFieldDefinitionId: field.deviceFieldDefinitionId },
        {
          status: 'deprecated',
          // One instant for both: the deprecation is the update.
          deprecatedAt: () => 'statement_timestamp()',
          lockVersion: field.lockVersion + 1,
          updatedAt: () => 'statement_timestamp()',
        },
      );
      await tx.audit({
        eventType: 'device_field.deprecated',
        action: 'deprecate',
        entityType: 'device_field',
        entityId: field.deviceFieldDefinitionId,
        tenantId: field.tenantId,
        metadata: {
          deviceTypeId,
          key: field.key,
          status: { before: field.status, after: 'deprecated' },
          lockVersion: { before: field.lockVersion, after: field.lockVersion + 1 },
        },
      });
      return DeviceFieldResponse.of(await this.types.findField(tx.manager, field.deviceFieldDefinitionId));
    });
  }
}
