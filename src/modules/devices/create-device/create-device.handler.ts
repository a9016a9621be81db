import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceTypeEntity } from '../../device-types';
import { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DeviceEntity } from '../persistence/device.entity';
import { DeviceRepository, DEVICE_CONSTRAINTS } from '../persistence/device.repository';
import { DeviceResponse } from '../dto/device.response.dto';
import { CreateDeviceCommand } from './create-device.command';

/**
 * Register a device, optionally straight into a unit (its first assignment period starts now). The
 * devEui is checked by the database's partial unique index only, so two tenants racing for one devEui get one 201
 * and one 409, and the 409 never says which tenant holds it.
 */
@CommandHandler(CreateDeviceCommand)
export class CreateDeviceHandler implements ICommandHandler<CreateDeviceCommand, DeviceResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateDeviceCommand): Promise<DeviceResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    const { tenantId } = access.tenant;
    access.requireAnywhere(caller.permission);

    return this.unitOfWork.run(
      async (tx) => {
        // FOR SHARE: a concurrent disable of the type waits until this device exists (and then still succeeds).
        const type = await tx.manager.findOne(DeviceTypeEntity, {
          where: { tenantId, deviceTypeId: input.deviceTypeId.toLowerCase() },
          lock: { mode: 'pessimistic_read' },
        });
        if (!type) throw ValidationFailedError.single('body.deviceTypeId', 'reference_not_found', 'No device type of this tenant has this id.');

        const unit = input.organizationUnitId
          ? await this.devices.visibleUnit(tx.manager, access, input.organizationUnitId, 'body.organizationUnitId')
          : null;
        if (unit) access.require(caller.permission, unit);
        else if (!access.can(caller.permission, 'T')) {
          throw ValidationFailedError.single(
            'body.organizationUnitId',
            'required',
            'Without a tenant-level grant a device must be created in one of your organization units.',
          );
        }

        if (type.status === 'disabled') throw new ConflictError('device_type_disabled', 'The device type is disabled: it takes no new devices.');
        if (unit) await this.devices.assertUnitActive(tx.manager, access, unit);

        const deviceId = randomUUID();
        await tx.manager.insert(DeviceEntity, {
          deviceId,
          tenantId,
          deviceTypeId: type.deviceTypeId,
          devEui: input.devEui,
          name: input.name,
          metadata: input.metadata ?? {},
        });
        await tx.audit({
          eventType: 'device.created',
          action: 'create',
          entityType: 'device',
          entityId: deviceId,
          tenantId,
          metadata: { devEui: input.devEui, deviceTypeId: type.deviceTypeId, name: input.name, organizationUnitId: unit?.organizationUnitId ?? null },
        });

        let current: DeviceAssignmentEntity | null = null;
        if (unit) {
          const deviceAssignmentId = randomUUID();
          await tx.manager.query(
            `INSERT INTO device_assignments (device_assignment_id, tenant_id, device_id, organization_unit_id, valid_from, assigned_by_user_id)
             VALUES ($1, $2, $3, $4, date_trunc('milliseconds', clock_timestamp()), $5)`,
            [deviceAssignmentId, tenantId, deviceId, unit.organizationUnitId, caller.principal.userId],
          );
          await tx.audit({
            eventType: 'device.assigned',
            action: 'assign',
            entityType: 'device',
            entityId: deviceId,
            tenantId,
            metadata: { deviceAssignmentId, organizationUnitId: unit.organizationUnitId, previousOrganizationUnitId: null },
          });
          current = await tx.manager.findOneByOrFail(DeviceAssignmentEntity, { deviceAssignmentId });
        }
        return DeviceResponse.of(await this.devices.find(tx.manager, deviceId), current);
      },
      { constraints: DEVICE_CONSTRAINTS },
    );
  }
}
