import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DISABLE_REACTIVATE, disableActionFor, StatusTransitions } from '../../../shared/state/status-transitions';
import { DeviceTypeEntity } from '../persistence/device-type.entity';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeRepository } from '../persistence/device-type.repository';
import { DeviceTypeResponse } from '../dto/device-type.response.dto';
import { ChangeDeviceTypeStatusCommand } from './change-device-type-status.command';

const TRANSITIONS = new StatusTransitions('device_type', DISABLE_REACTIVATE);

/**
 * `active` ⇄ `disabled`; the same status again is 409 `invalid_state` with `currentStatus`
 * (checked after If-Match). Fields are untouched: disabling only refuses new devices.
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
      await TRANSITIONS.apply(tx, {
        action: disableActionFor(status),
        // If-Match is checked under the lock, before the move (409 lock_version_mismatch wins over invalid_state).
        lock: () => this.types.lockType(tx.manager, deviceTypeId, expectedLockVersion),
        update: async (type, move) => {
          await tx.manager.update(
            DeviceTypeEntity,
            { deviceTypeId },
            { status: move.to, lockVersion: type.lockVersion + 1, updatedAt: () => 'clock_timestamp()' },
          );
        },
        entityId: deviceTypeId,
        tenantId: access.tenant.tenantId,
        metadata: (type) => ({ key: type.key, lockVersion: { before: type.lockVersion, after: type.lockVersion + 1 } }),
      });
      return DeviceTypeResponse.of(await this.types.findType(tx.manager, deviceTypeId));
    });
  }
}
