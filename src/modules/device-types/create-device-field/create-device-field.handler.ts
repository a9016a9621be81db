import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { canonicalTargets, DeviceFieldDefinitionEntity } from '../persistence/device-field-definition.entity';
import { DeviceFieldResponse } from '../dto/device-field.response.dto';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeRepository, MAX_ACTIVE_FIELDS, DEVICE_TYPE_CONSTRAINTS } from '../persistence/device-type.repository';
import { CreateDeviceFieldCommand } from './create-device-field.command';

/**
 * A new active field of the type. The type row is locked FOR UPDATE first, so concurrent creates
 * on one type run one after the other and cannot together exceed 200 active fields. A disabled type still
 * takes new fields: disabling only refuses new devices. The type's own lockVersion does not change.
 */
@CommandHandler(CreateDeviceFieldCommand)
export class CreateDeviceFieldHandler implements ICommandHandler<CreateDeviceFieldCommand, DeviceFieldResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceTypeReader,
    private readonly types: DeviceTypeRepository,
  ) {}

  async execute({ caller, deviceTypeId, input }: CreateDeviceFieldCommand): Promise<DeviceFieldResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceTypeId);
    access.require(caller.permission);

    return this.unitOfWork.run(
      async (tx) => {
        const type = await this.types.lockType(tx.manager, deviceTypeId);
        await this.types.assertFieldKeyAvailable(tx.manager, deviceTypeId, input.key);
        if ((await this.types.countActiveFields(tx.manager, deviceTypeId)) >= MAX_ACTIVE_FIELDS) {
          throw new ConflictError('max_fields', `A device type has at most ${MAX_ACTIVE_FIELDS} active fields; deprecate one first.`, {
            maxFields: MAX_ACTIVE_FIELDS,
          });
        }
        const deviceFieldDefinitionId = randomUUID();
        await tx.manager.insert(DeviceFieldDefinitionEntity, {
          deviceFieldDefinitionId,
          tenantId: type.tenantId,
          deviceTypeId,
          key: input.key,
          name: input.name,
          description: input.description ?? '',
          schemaRef: input.schemaRef,
          unit: input.unit ?? null,
          storageTargets: canonicalTargets(input.storageTargets),
          measurementType: input.measurementType,
        });
        const field = await this.types.findField(tx.manager, deviceFieldDefinitionId);
        await tx.audit({
          eventType: 'device_field.created',
          action: 'create',
          entityType: 'device_field',
          entityId: deviceFieldDefinitionId,
          tenantId: type.tenantId,
          metadata: {
            deviceTypeId,
            key: field.key,
            schemaRef: field.schemaRef,
            storageTargets: field.storageTargets,
            measurementType: field.measurementType,
            lockVersion: field.lockVersion,
          },
        });
        return DeviceFieldResponse.of(field);
      },
      { constraints: DEVICE_TYPE_CONSTRAINTS },
    );
  }
}
