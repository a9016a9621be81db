import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { TenantResponse, TenantStatus } from '../dto/tenant.response.dto';

export class ChangeTenantStatusCommand extends Command<TenantResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenantNumber: number,
    readonly status: TenantStatus,
  ) {
    super();
  }
}
