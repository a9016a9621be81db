import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { EntityKey, EntityName, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';
import { MaxLength } from '../../../shared/validation/text-length';
import { OptionalDescription } from '../../device-types';

export class CreateEmailTemplateRequest {
  @EntityKey()
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;
}

/** At least one property; `key` is immutable. */
@MinProperties(1)
export class UpdateEmailTemplateRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}

export class ListEmailTemplatesParams extends AscendingPageParams {
  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}

export class ActivateEmailTemplateRequest {
  @ApiProperty({ format: 'uuid', description: 'A released version of this template; it replaces the active one for every later e-mail.' })
  @IsUUID()
  emailTemplateVersionId!: string;
}
