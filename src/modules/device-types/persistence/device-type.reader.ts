import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeviceTypeEntity } from './device-type.entity';
import { resolveResource } from '../../../shared/access/resolve-resource';

/** The 404 of every device type the caller cannot see: missing, or in a tenant without an effective grant. */
export const deviceTypeNotFound = () => new ResourceNotFoundError('device_type');

/** A device type behind a flat URL, and what the caller may do in its tenant. */
export interface ResolvedDeviceType {
  access: TenantAccess;
  deviceType: DeviceTypeEntity;
}

/**
 * Reads device types for this and other modules. Device types are tenant-node objects: any
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
    const { resource: deviceType, access } = await resolveResource(this.accessService, principal, {
      load: () => this.dataSource.manager.findOneBy(DeviceTypeEntity, { deviceTypeId }),
      notFound: deviceTypeNotFound,
    });
    return { access, deviceType };
  }
}
