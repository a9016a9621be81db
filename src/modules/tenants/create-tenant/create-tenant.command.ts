import { Command } from '@nestjs/cqrs';
import type { TenantResponse } from '../tenant.response.dto';
import type { CreateTenantRequest } from './create-tenant.request.dto';

export class CreateTenantCommand extends Command<TenantResponse> {
  constructor(readonly input: CreateTenantRequest) {
    super();
  }
}
