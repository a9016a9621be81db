import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceTypeEntity } from '../persistence/device-type.entity';
import { DeviceTypeRepository, DEVICE_TYPE_CONSTRAINTS } from '../persistence/device-type.repository';
import { DeviceTypeResponse } from '../dto/device-type.response.dto';
import { CreateDeviceTypeCommand } from './create-device-type.command';

/** A new device type of the tenant, `active`, lockVersion 1. */
@CommandHandler(CreateDeviceTypeCommand)
export class CreateDeviceTypeHandler implements ICommandHandler<CreateDeviceTypeCommand, DeviceTypeResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateDeviceTypeCommand): Promise<DeviceTypeResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const { tenantId } = access.tenant;

    return this.unitOfWork.run(
      async (tx) => {
        await this.types.assertTypeKeyAvailable(tx.manager, tenantId, input.key);
        const deviceTypeId = randomUUID();
        await tx.manager.insert(DeviceTypeEntity, {
          deviceTypeId,
          tenantId,
          key: input.key,
          name: input.name,
          description: input.description ?? '',
        });
        const type = await this.types.findType(tx.manager, deviceTypeId);
        await tx.audit({
          eventType: 'device_type.created',
          action: 'create',
          entityType: 'device_type',
          entityId: deviceTypeId,
          tenantId,
          metadata: { key: type.key, name: type.name, lockVersion: type.lockVersion },
        });
        return DeviceTypeResponse.of(type);
      },
      { constraints: DEVICE_TYPE_CONSTRAINTS },
    );
  }
}
