import { ApiProperty } from '@nestjs/swagger';
import { OrganizationUnitResponse } from './organization-unit.response.dto';

export class OrganizationUnitAncestors {
  @ApiProperty({ type: () => [OrganizationUnitResponse], description: 'Root first; the unit itself excluded; only visible units.' })
  items!: OrganizationUnitResponse[];
}
