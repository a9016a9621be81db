import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeOrganizationUnitStatusHandler } from './change-organization-unit-status/change-organization-unit-status.handler';
import { CreateOrganizationUnitHandler } from './create-organization-unit/create-organization-unit.handler';
import { OrganizationUnitReader } from './persistence/organization-unit.reader';
import { OrganizationUnitRepository } from './persistence/organization-unit.repository';
import { GetOrganizationUnitHandler } from './get-organization-unit/get-organization-unit.handler';
import { ListOrganizationUnitAncestorsHandler } from './list-organization-unit-ancestors/list-organization-unit-ancestors.handler';
import { ListOrganizationUnitsHandler } from './list-organization-units/list-organization-units.handler';
import { OrganizationUnitsController } from './organization-units.controller';
import { UpdateOrganizationUnitHandler } from './update-organization-unit/update-organization-unit.handler';

/** The organization-unit tree. */
@Module({
  imports: [PaginationModule],
  controllers: [OrganizationUnitsController],
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
