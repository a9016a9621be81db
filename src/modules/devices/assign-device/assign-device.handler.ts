import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DeviceReader } from '../persistence/device.reader';
import { DeviceRepository, DEVICE_CONSTRAINTS } from '../persistence/device.repository';
import { DeviceAssignmentResponse } from '../dto/device.response.dto';
import { AssignDeviceCommand } from './assign-device.command';

const VALID_FROM = 'body.validFrom';

/**
 * Assign an unassigned device, or move an assigned one (the open period closes at the new
 * `validFrom`). The device row is locked, so moves of one device run one after another; the database's
 * exclusion constraint and open-period index would refuse an overlap even if they did not.
 */
@CommandHandler(AssignDeviceCommand)
export class AssignDeviceHandler implements ICommandHandler<AssignDeviceCommand, DeviceAssignmentResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceReader,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, deviceId, input }: AssignDeviceCommand): Promise<DeviceAssignmentResponse> {
    const { access } = await this.reader.resolve(caller.principal, deviceId);
    // A caller without the permission anywhere is refused before its body references are looked at.
    access.requireAnywhere(caller.permission);
    const requested = input.validFrom === undefined ? null : new Date(input.validFrom);
    if (requested && requested.getTime() > Date.now()) {
      throw ValidationFailedError.single(VALID_FROM, 'range', 'validFrom must not be in the future.');
    }

    return this.unitOfWork.run(
      async (tx) => {
        const device = await this.devices.lock(tx.manager, deviceId);
        // Read again under the lock: a concurrent move may have changed the current unit.
        const current = await this.reader.currentAssignment(tx.manager, deviceId);
        const unit = await this.devices.visibleUnit(tx.manager, access, input.organizationUnitId, 'body.organizationUnitId');
        access.require(caller.permission, this.reader.target(current));
        access.require(caller.permission, unit);

        if (device.status === 'retired') throw new ConflictError('invalid_state', 'A retired device cannot be assigned.', { currentStatus: device.status });
        if (current?.assignment.organizationUnitId === unit.organizationUnitId) {
          throw new ConflictError('already_assigned', 'The device is already assigned to this unit.', {
            deviceAssignmentId: current.assignment.deviceAssignmentId,
          });
        }
        await this.devices.assertUnitActive(tx.manager, access, unit);

        const latest = await this.devices.latestAssignment(tx.manager, deviceId);
        const validFrom = requested ?? (await this.devices.nowAfter(tx.manager, latest));
        if (latest && latest.validTo === null && validFrom <= latest.validFrom) {
          throw ValidationFailedError.single(VALID_FROM, 'range', `validFrom must be after the open period's start (${latest.validFrom.toISOString()}).`);
        }
        if (latest && latest.validTo !== null && validFrom < latest.validTo) {
          throw ValidationFailedError.single(VALID_FROM, 'range', `validFrom must not be before the last period's end (${latest.validTo.toISOString()}).`);
        }

        if (current) {
          await tx.manager.update(
            DeviceAssignmentEntity,
            { deviceAssignmentId: current.assignment.deviceAssignmentId },
            { validTo: validFrom, updatedAt: () => 'clock_timestamp()' },
          );
        }
        const deviceAssignmentId = randomUUID();
        await tx.manager.insert(DeviceAssignmentEntity, {
          deviceAssignmentId,
          tenantId: device.tenantId,
          deviceId,
          organizationUnitId: unit.organizationUnitId,
          validFrom,
          assignedByUserId: caller.principal.userId,
        });
        await tx.audit({
          eventType: 'device.assigned',
          action: 'assign',
          entityType: 'device',
          entityId: deviceId,
          tenantId: device.tenantId,
          metadata: {
            deviceAssignmentId,
            organizationUnitId: unit.organizationUnitId,
            previousDeviceAssignmentId: current?.assignment.deviceAssignmentId ?? null,
            previousOrganizationUnitId: current?.assignment.organizationUnitId ?? null,
            validFrom: validFrom.toISOString(),
          },
        });
        return DeviceAssignmentResponse.of(await tx.manager.findOneByOrFail(DeviceAssignmentEntity, { deviceAssignmentId }));
      },
      { constraints: DEVICE_CONSTRAINTS },
    );
  }
}
