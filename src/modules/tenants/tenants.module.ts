import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeTenantStatusController } from './change-tenant-status/change-tenant-status.controller';
import { ChangeTenantStatusHandler } from './change-tenant-status/change-tenant-status.handler';
import { CreateTenantController } from './create-tenant/create-tenant.controller';
import { CreateTenantHandler } from './create-tenant/create-tenant.handler';
import { TenantRepository } from './domain/tenant.repository';
import { GetTenantController } from './get-tenant/get-tenant.controller';
import { GetTenantHandler } from './get-tenant/get-tenant.handler';
import { ListTenantsController } from './list-tenants/list-tenants.controller';
import { ListTenantsHandler } from './list-tenants/list-tenants.handler';
import { UpdateTenantController } from './update-tenant/update-tenant.controller';
import { UpdateTenantHandler } from './update-tenant/update-tenant.handler';

/** Design §5.4: tenants. */
@Module({
  imports: [PaginationModule],
  controllers: [ListTenantsController, CreateTenantController, GetTenantController, UpdateTenantController, ChangeTenantStatusController],
  providers: [TenantRepository, ListTenantsHandler, CreateTenantHandler, GetTenantHandler, UpdateTenantHandler, ChangeTenantStatusHandler],
})
export class TenantsModule {}
