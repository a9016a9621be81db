import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceStatus } from '../domain/device.entity';
import { DeviceReader } from '../domain/device.reader';
import { DeviceRepository } from '../domain/device.repository';
import { DeviceResponse } from '../domain/device.response.dto';
import { ChangeDeviceStatusCommand, DeviceStatusMove } from './change-device-status.command';

/** Design §7: `active` ⇄ `disabled`; either → `retired` (terminal). */
const MOVES: Record<DeviceStatusMove, { from: DeviceStatus[]; to: DeviceStatus; past: 'disabled' | 'reactivated' | 'retired' }> = {
  disable: { from: ['active'], to: 'disabled', past: 'disabled' },
  reactivate: { from: ['disabled'], to: 'active', past: 'reactivated' },
  retire: { from: ['active', 'disabled'], to: 'retired', past: 'retired' },
};

@CommandHandler(ChangeDeviceStatusCommand)
export class ChangeDeviceStatusHandler implements ICommandHandler<ChangeDeviceStatusCommand, DeviceResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly reader: DeviceReader,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, deviceId, move }: ChangeDeviceStatusCommand): Promise<DeviceResponse> {
    const { access, current } = await this.reader.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.reader.target(current));
    const { from, to, past } = MOVES[move];
    return this.unitOfWork.run(async (tx) => {
      const device = await this.devices.lock(tx.manager, deviceId);
      if (!from.includes(device.status)) {
        throw new ConflictError('invalid_state', `A ${device.status} device cannot be ${past}.`, { currentStatus: device.status });
      }
      // Retiring ends the open period now (never before it started) and, by leaving the partial unique index,
      // frees the devEui.
      const ended = move === 'retire' ? await this.devices.endOpenPeriodNow(tx.manager, deviceId) : null;
      await tx.manager.query(
        `UPDATE devices SET status = $2::varchar, retired_at = CASE WHEN $2::varchar = 'retired' THEN clock_timestamp() END, updated_at = clock_timestamp()
          WHERE device_id = $1`,
        [deviceId, to],
      );
      await tx.audit({
        eventType: `device.${past}`,
        action: move,
        entityType: 'device',
        entityId: deviceId,
        tenantId: device.tenantId,
        metadata: {
          status: { before: device.status, after: to },
          ...(ended ? { endedDeviceAssignmentId: ended.deviceAssignmentId, organizationUnitId: ended.organizationUnitId } : {}),
        },
      });
      const open = await this.reader.currentAssignment(tx.manager, deviceId);
      return DeviceResponse.of(await this.devices.find(tx.manager, deviceId), open?.assignment ?? null);
    });
  }
}
