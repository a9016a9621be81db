import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DeviceAssignmentReader } from '../persistence/device-assignment.reader';
import { DeviceRepository } from '../persistence/device.repository';
import { DeviceAssignmentResponse } from '../dto/device.response.dto';
import { EndDeviceAssignmentCommand } from './end-device-assignment.command';

const VALID_TO = 'body.validTo';

/** End the open period; the device is unassigned from `validTo` on. */
@CommandHandler(EndDeviceAssignmentCommand)
export class EndDeviceAssignmentHandler implements ICommandHandler<EndDeviceAssignmentCommand, DeviceAssignmentResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly assignments: DeviceAssignmentReader,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, deviceId, deviceAssignmentId, validTo: requested }: EndDeviceAssignmentCommand): Promise<DeviceAssignmentResponse> {
    const { access, period } = await this.assignments.resolve(caller.principal, deviceId, deviceAssignmentId);
    access.require(caller.permission, period.unit);
    const validTo = requested === undefined ? null : new Date(requested);
    if (validTo && validTo.getTime() > Date.now()) throw ValidationFailedError.single(VALID_TO, 'range', 'validTo must not be in the future.');

    return this.unitOfWork.run(async (tx) => {
      await this.devices.lock(tx.manager, deviceId);
      const assignment = await tx.manager.findOneByOrFail(DeviceAssignmentEntity, { deviceAssignmentId });
      if (assignment.validTo !== null) {
        throw new ConflictError('assignment_closed', 'This assignment period has already ended.', { validTo: assignment.validTo.toISOString() });
      }
      const end = validTo ?? (await this.devices.nowAfter(tx.manager, null));
      if (end <= assignment.validFrom) {
        if (validTo) throw ValidationFailedError.single(VALID_TO, 'range', `validTo must be after the period's start (${assignment.validFrom.toISOString()}).`);
        end.setTime(assignment.validFrom.getTime() + 1);
      }
      await tx.manager.update(DeviceAssignmentEntity, { deviceAssignmentId }, { validTo: end, updatedAt: () => 'clock_timestamp()' });
      await tx.audit({
        eventType: 'device.assignment_ended',
        action: 'end_assignment',
        entityType: 'device',
        entityId: deviceId,
        tenantId: assignment.tenantId,
        metadata: { deviceAssignmentId, organizationUnitId: assignment.organizationUnitId, validTo: end.toISOString() },
      });
      return DeviceAssignmentResponse.of(await tx.manager.findOneByOrFail(DeviceAssignmentEntity, { deviceAssignmentId }));
    });
  }
}
