import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID } from 'class-validator';
import { EntityKey, EntityName, Metadata, WhenPresent } from '../../../shared/validation/fields';

export class CreateOrganizationUnitRequest {
  @EntityKey()
  key!: string;

  @EntityName()
  name!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A visible unit of the same tenant; omitted: a root unit. Immutable.' })
  @WhenPresent()
  @IsString()
  @IsUUID('all', { message: 'parentOrganizationUnitId must be a UUID' })
  parentOrganizationUnitId?: string;

  @Metadata('Default `{}`.')
  metadata?: Record<string, string>;
}
