import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import { GetOrganizationUnitQuery } from './get-organization-unit.query';

/** Any visible unit, navigation ancestors included (their `scopeRelation` says so). */
@QueryHandler(GetOrganizationUnitQuery)
export class GetOrganizationUnitHandler implements IQueryHandler<GetOrganizationUnitQuery, OrganizationUnitResponse> {
  constructor(private readonly reader: OrganizationUnitReader) {}

  async execute({ caller, organizationUnitId }: GetOrganizationUnitQuery): Promise<OrganizationUnitResponse> {
    const { access, unit } = await this.reader.resolve(caller.principal, organizationUnitId);
    return this.reader.presentOne(access, unit);
  }
}
