import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeOrganizationUnitStatusController } from './change-organization-unit-status/change-organization-unit-status.controller';
import { ChangeOrganizationUnitStatusHandler } from './change-organization-unit-status/change-organization-unit-status.handler';
import { CreateOrganizationUnitController } from './create-organization-unit/create-organization-unit.controller';
import { CreateOrganizationUnitHandler } from './create-organization-unit/create-organization-unit.handler';
import { OrganizationUnitReader } from './domain/organization-unit.reader';
import { OrganizationUnitRepository } from './domain/organization-unit.repository';
import { GetOrganizationUnitController } from './get-organization-unit/get-organization-unit.controller';
import { GetOrganizationUnitHandler } from './get-organization-unit/get-organization-unit.handler';
import { ListOrganizationUnitAncestorsController } from './list-organization-unit-ancestors/list-organization-unit-ancestors.controller';
import { ListOrganizationUnitAncestorsHandler } from './list-organization-unit-ancestors/list-organization-unit-ancestors.handler';
import { ListOrganizationUnitsController } from './list-organization-units/list-organization-units.controller';
import { ListOrganizationUnitsHandler } from './list-organization-units/list-organization-units.handler';
import { UpdateOrganizationUnitController } from './update-organization-unit/update-organization-unit.controller';
import { UpdateOrganizationUnitHandler } from './update-organization-unit/update-organization-unit.handler';

/** Design §5.5: the organization-unit tree. */
@Module({
  imports: [PaginationModule],
  controllers: [
    ListOrganizationUnitsController,
    CreateOrganizationUnitController,
    GetOrganizationUnitController,
    ListOrganizationUnitAncestorsController,
    UpdateOrganizationUnitController,
    ChangeOrganizationUnitStatusController,
  ],
  providers: [
    OrganizationUnitRepository,
    OrganizationUnitReader,
    ListOrganizationUnitsHandler,
    CreateOrganizationUnitHandler,
    GetOrganizationUnitHandler,
    ListOrganizationUnitAncestorsHandler,
    UpdateOrganizationUnitHandler,
    ChangeOrganizationUnitStatusHandler,
  ],
  exports: [OrganizationUnitReader],
})
export class OrganizationUnitsModule {}
