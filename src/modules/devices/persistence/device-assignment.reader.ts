import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TenantAccess } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { AssignmentWithUnit, DeviceReader } from './device.reader';

const READ: Permission = 'devices:read';

export const assignmentNotFound = () => new ResourceNotFoundError('device_assignment');

/**
 * Assignment periods as a caller sees them: a visible device's periods in units the caller can access;
 * a caller covering the whole tree sees all of them.
 */
@Injectable()
export class DeviceAssignmentReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceReader,
  ) {}

  async resolve(principal: Principal, deviceId: string, deviceAssignmentId: string): Promise<{ access: TenantAccess; period: AssignmentWithUnit }> {
    const { access } = await this.devices.resolve(principal, deviceId);
    const period = (await this.devices.allPeriods(this.dataSource.manager, deviceId)).find(
      (candidate) => candidate.assignment.deviceAssignmentId === deviceAssignmentId,
    );
    if (!period || !this.isVisible(access, period)) throw assignmentNotFound();
    return { access, period };
  }

  isVisible(access: TenantAccess, period: AssignmentWithUnit): boolean {
    return access.covers(READ, period.unit);
  }
}
