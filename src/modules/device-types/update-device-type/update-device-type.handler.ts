import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceTypeEntity } from '../persistence/device-type.entity';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeRepository } from '../persistence/device-type.repository';
import { DeviceTypeResponse } from '../dto/device-type.response.dto';
import { UpdateDeviceTypeCommand } from './update-device-type.command';

/**
 * Rename or redescribe a device type. Every successful PATCH is a new version (lockVersion + 1), even one whose values
 * equal the current ones: the ETag a client gets back always differs from the one it sent.
 */
@CommandHandler(UpdateDeviceTypeCommand)
export class UpdateDeviceTypeHandler implements ICommandHandler<UpdateDeviceTypeCommand, DeviceTypeResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceTypeReader,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, deviceTypeId, expectedLockVersion, changes }: UpdateDeviceTypeCommand): Promise<DeviceTypeResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceTypeId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const type = await this.types.lockType(tx.manager, deviceTypeId, expectedLockVersion);
      const changed: ('name' | 'description')[] = [];
      if (changes.name !== undefined && changes.name !== type.name) changed.push('name');
      if (changes.description !== undefined && changes.description !== type.description) changed.push('description');

      await tx.manager.update(
        DeviceTypeEntity,
        { deviceTypeId },
        {
          ...Object.fromEntries(changed.map((field) => [field, changes[field]])),
          lockVersion: type.lockVersion + 1,
          updatedAt: () => 'clock_timestamp()',
        },
      );
      await tx.audit({
        eventType: 'device_type.updated',
        action: 'update',
        entityType: 'device_type',
        entityId: deviceTypeId,
        tenantId: type.tenantId,
        metadata: {
          key: type.key,
          changedFields: changed,
          ...(changed.includes('name') ? { name: { before: type.name, after: changes.name } } : {}),
          lockVersion: { before: type.lockVersion, after: type.lockVersion + 1 },
        },
      });
      return DeviceTypeResponse.of(await this.types.findType(tx.manager, deviceTypeId));
    });
  }
}
