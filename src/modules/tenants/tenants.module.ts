import { Module } from '@nestjs/common';
import { ActionsModule } from '../actions';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeTenantStatusHandler } from './change-tenant-status/change-tenant-status.handler';
import { CreateTenantHandler } from './create-tenant/create-tenant.handler';
import { TenantRepository } from './persistence/tenant.repository';
import { GetTenantHandler } from './get-tenant/get-tenant.handler';
import { ListTenantsHandler } from './list-tenants/list-tenants.handler';
import { TenantsController } from './tenants.controller';
import { UpdateTenantHandler } from './update-tenant/update-tenant.handler';

/** Tenants. */
@Module({
  imports: [PaginationModule, ActionsModule],
  controllers: [TenantsController],
  providers: [TenantRepository, ListTenantsHandler, CreateTenantHandler, GetTenantHandler, UpdateTenantHandler, ChangeTenantStatusHandler],
})
export class TenantsModule {}
