import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, ValidateBy, ValidateIf } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { EmailAddress } from '../../../shared/validation/email';
import { WhenPresent } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';
import { Length } from '../../../shared/validation/text-length';
import { RECIPIENT_BINDING_STATUSES, RECIPIENT_TYPES, type RecipientBindingStatus, type RecipientType } from '../persistence/recipient-binding.entity';

/** Present exactly for one recipient type: required with it (`required`), refused with the other (`mismatch`). */
const OnlyFor = (type: RecipientType, property: string): PropertyDecorator =>
  applyDecorators(
    ValidateIf((object: { recipientType?: unknown }, value) => object.recipientType === type || value !== undefined),
    ValidateBy({
      name: 'mismatch',
      validator: {
        // An unknown or missing type is reported on `recipientType` alone.
        validate: (_value, args) => {
          const given = (args?.object as { recipientType?: unknown }).recipientType;
          return given === type || !(RECIPIENT_TYPES as readonly unknown[]).includes(given);
        },
        defaultMessage: () => `${property} is given only with recipientType "${type}".`,
      },
    }),
  );

/** `null` or absent: any; else a uuid. */
const OptionalReference = (description: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description }),
    ValidateIf((_object, value) => value !== undefined && value !== null),
    IsUUID(),
  );

const IncludeDescendants = (description: string): PropertyDecorator =>
  applyDecorators(ApiPropertyOptional({ type: 'boolean', description }), WhenPresent(), IsBoolean());

export class CreateRecipientBindingRequest {
  @ApiProperty({ format: 'uuid', description: 'A template of this tenant.' })
  @IsUUID()
  emailTemplateId!: string;

  @ApiProperty({ enum: RECIPIENT_TYPES, description: '`user`: a member of the tenant, at its current address; `email`: a plain address.' })
  @IsString()
  @IsIn([...RECIPIENT_TYPES])
  recipientType!: RecipientType;

  @ApiPropertyOptional({ format: 'uuid', description: 'With `recipientType` `user` (required): a user holding an effective grant in the tenant.' })
  @OnlyFor('user', 'userId')
  @IsUUID()
  userId?: string;

  @ApiPropertyOptional({ maxLength: 254, description: 'With `recipientType` `email` (required).' })
  @OnlyFor('email', 'email')
  @IsString()
  @Length(3, 254)
  @EmailAddress('email')
  email?: string;

  @OptionalReference('Only devices of this type; null or absent: any type.')
  deviceTypeId?: string | null;

  @OptionalReference('Only devices whose current unit is this one (or below it, with `includeDescendants`); null or absent: any device.')
  organizationUnitId?: string | null;

  @IncludeDescendants('Default true: the unit and every unit below it.')
  includeDescendants?: boolean;
}

/** At least one property; the template and the recipient are immutable. */
@MinProperties(1)
export class UpdateRecipientBindingRequest {
  @OptionalReference('null: any type.')
  deviceTypeId?: string | null;

  @OptionalReference('null: any device.')
  organizationUnitId?: string | null;

  @IncludeDescendants('Absent: unchanged.')
  includeDescendants?: boolean;
}

export class ListRecipientBindingsParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: RECIPIENT_BINDING_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...RECIPIENT_BINDING_STATUSES])
  status?: RecipientBindingStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  emailTemplateId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Bindings narrowed to this device type.' })
  @IsOptional()
  @IsUUID()
  deviceTypeId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Bindings narrowed to this unit.' })
  @IsOptional()
  @IsUUID()
  organizationUnitId?: string;
}
