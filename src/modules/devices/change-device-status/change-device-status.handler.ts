import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { StatusTransitions } from '../../../shared/state/status-transitions';
import { DeviceStatus } from '../persistence/device.entity';
import { DeviceReader } from '../persistence/device.reader';
import { DeviceRepository } from '../persistence/device.repository';
import { DeviceResponse } from '../dto/device.response.dto';
import { ChangeDeviceStatusCommand, DeviceStatusMove } from './change-device-status.command';

/** `active` ⇄ `disabled`; either → `retired` (terminal). */
const TRANSITIONS = new StatusTransitions<DeviceStatus, DeviceStatusMove>('device', [
  { from: 'active', action: 'disable', to: 'disabled', event: 'disabled' },
  { from: 'disabled', action: 'reactivate', to: 'active', event: 'reactivated' },
  { from: 'active', action: 'retire', to: 'retired', event: 'retired' },
  { from: 'disabled', action: 'retire', to: 'retired', event: 'retired' },
]);

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
    return this.unitOfWork.run(async (tx) => {
      await TRANSITIONS.apply(tx, {
        action: move,
        lock: () => this.devices.lock(tx.manager, deviceId),
        update: async (_device, { to }) => {
          // Retiring ends the open period now (never before it started) and, by leaving the partial unique index,
          // frees the devEui.
          const ended = move === 'retire' ? await this.devices.endOpenPeriodNow(tx.manager, deviceId) : null;
          await tx.manager.query(
            `UPDATE devices SET status = $2::varchar, retired_at = CASE WHEN $2::varchar = 'retired' THEN clock_timestamp() END, updated_at = clock_timestamp()
              WHERE device_id = $1`,
            [deviceId, to],
          );
          return ended ? { endedDeviceAssignmentId: ended.deviceAssignmentId, organizationUnitId: ended.organizationUnitId } : {};
        },
        entityId: deviceId,
        tenantId: access.tenant.tenantId,
      });
      const open = await this.reader.currentAssignment(tx.manager, deviceId);
      return DeviceResponse.of(await this.devices.find(tx.manager, deviceId), open?.assignment ?? null);
    });
  }
}
