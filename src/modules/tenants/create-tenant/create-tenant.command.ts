import { Command } from '@nestjs/cqrs';
import type { TenantResponse } from '../dto/tenant.response.dto';
import type { CreateTenantRequest } from '../dto/create-tenant.request.dto';

export class CreateTenantCommand extends Command<TenantResponse> {
  constructor(readonly input: CreateTenantRequest) {
    super();
  }
}
