import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { TenantResponse } from '../dto/tenant.response.dto';
import type { TenantChanges } from '../dto/update-tenant.request.dto';

export class UpdateTenantCommand extends Command<TenantResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly changes: TenantChanges,
  ) {
    super();
  }
}
