import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { sameMap } from '../../tenants';
import { DeviceEntity } from '../persistence/device.entity';
import { DeviceReader } from '../persistence/device.reader';
import { DeviceRepository } from '../persistence/device.repository';
import { DeviceResponse } from '../dto/device.response.dto';
import { UpdateDeviceCommand } from './update-device.command';

/** Rename or replace the metadata of a device that is not retired. */
@CommandHandler(UpdateDeviceCommand)
export class UpdateDeviceHandler implements ICommandHandler<UpdateDeviceCommand, DeviceResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceReader,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, deviceId, changes }: UpdateDeviceCommand): Promise<DeviceResponse> {
    const { access, current } = await this.reader.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.reader.target(current));
    return this.unitOfWork.run(async (tx) => {
      const device = await this.devices.lock(tx.manager, deviceId);
      if (device.status === 'retired') throw new ConflictError('invalid_state', 'A retired device cannot be changed.', { currentStatus: device.status });
      const changed: ('name' | 'metadata')[] = [];
      if (changes.name !== undefined && changes.name !== device.name) changed.push('name');
      if (changes.metadata !== undefined && !sameMap(device.metadata, changes.metadata)) changed.push('metadata');
      if (changed.length > 0) {
        await tx.manager.update(
          DeviceEntity,
          { deviceId },
          { ...Object.fromEntries(changed.map((field) => [field, changes[field]])), updatedAt: () => 'clock_timestamp()' },
        );
        await tx.audit({
          eventType: 'device.updated',
          action: 'update',
          entityType: 'device',
          entityId: deviceId,
          tenantId: device.tenantId,
          metadata: { changedFields: changed, ...(changed.includes('name') ? { name: { before: device.name, after: changes.name } } : {}) },
        });
      }
      const open = await this.reader.currentAssignment(tx.manager, deviceId);
      return DeviceResponse.of(await this.devices.find(tx.manager, deviceId), open?.assignment ?? null);
    });
  }
}
