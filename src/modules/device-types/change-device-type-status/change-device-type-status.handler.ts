import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceTypeEntity } from '../domain/device-type.entity';
import { DeviceTypeReader } from '../domain/device-type.reader';
import { DeviceTypeRepository } from '../domain/device-type.repository';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { ChangeDeviceTypeStatusCommand } from './change-device-type-status.command';

/**
 * Design §5.8, §7: `active` ⇄ `disabled`; the same status again is 409 `invalid_state` with `currentStatus`
 * (checked after If-Match, design §2). Fields are untouched: disabling only refuses new devices.
 */
@CommandHandler(ChangeDeviceTypeStatusCommand)
export class ChangeDeviceTypeStatusHandler implements ICommandHandler<ChangeDeviceTypeStatusCommand, DeviceTypeResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceTypeReader,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, deviceTypeId, expectedLockVersion, status }: ChangeDeviceTypeStatusCommand): Promise<DeviceTypeResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceTypeId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const type = await this.types.lockType(tx.manager, deviceTypeId, expectedLockVersion);
      if (type.status === status) {
        throw new ConflictError('invalid_state', `The device type is already ${status}.`, { currentStatus: type.status });
      }
      await tx.manager.update(
        DeviceTypeEntity,
        { deviceTypeId },
        { status, lockVersion: type.lockVersion + 1, updatedAt: () => 'clock_timestamp()' },
      );
      const disabling = status === 'disabled';
      await tx.audit({
        eventType: disabling ? 'device_type.disabled' : 'device_type.reactivated',
        action: disabling ? 'disable' : 'reactivate',
        entityType: 'device_type',
        entityId: deviceTypeId,
        tenantId: type.tenantId,
        metadata: {
          key: type.key,
          status: { before: type.status, after: status },
          lockVersion: { before: type.lockVersion, after: type.lockVersion + 1 },
        },
      });
      return DeviceTypeResponse.of(await this.types.findType(tx.manager, deviceTypeId));
    });
  }
}
