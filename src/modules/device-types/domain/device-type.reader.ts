import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeviceTypeEntity } from './device-type.entity';

/** The 404 of every device type the caller cannot see: missing, or in a tenant without an effective grant (design §2). */
export const deviceTypeNotFound = () => new ResourceNotFoundError('device_type');

/** A device type behind a flat URL, and what the caller may do in its tenant. */
export interface ResolvedDeviceType {
  access: TenantAccess;
  deviceType: DeviceTypeEntity;
}

/**
 * Reads device types for this and other modules. Device types are tenant-node objects (design §3): any
 * effective grant in the tenant sees them, so visibility is the tenant's.
 */
@Injectable()
export class DeviceTypeReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  /** The type if its tenant is visible to the caller; otherwise exactly the 404 of a missing type. */
  async resolve(principal: Principal, deviceTypeId: string): Promise<ResolvedDeviceType> {
    const deviceType = await this.dataSource.manager.findOneBy(DeviceTypeEntity, { deviceTypeId });
    if (!deviceType) throw deviceTypeNotFound();
    try {
      return { access: await this.accessService.tenantById(principal, deviceType.tenantId), deviceType };
    } catch (error) {
      // An invisible tenant must not show through as `tenant`: the type is simply not found.
      if (error instanceof ResourceNotFoundError) throw deviceTypeNotFound();
      throw error;
    }
  }
}
