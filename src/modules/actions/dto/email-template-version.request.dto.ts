import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, IsUUID, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { NewestFirstPageParams } from '../../../shared/pagination/newest-first-page';
import { MetadataRules, WhenPresent } from '../../../shared/validation/fields';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { checkTemplateText, TEMPLATE_VARIABLES_DESCRIPTION } from '../domain/template-syntax';
import { EMAIL_TEMPLATE_VERSION_STATUSES, type EmailTemplateVersionStatus } from '../persistence/email-template-version.entity';

export const MAX_SUBJECT_LENGTH = 200;
export const MAX_BODY_TEXT_LENGTH = 20000;
export const MAX_BODY_HTML_LENGTH = 100000;

const issueOf = (value: unknown) => (typeof value === 'string' ? checkTemplateText(value) : null);

/**
 * A template text: plain text and `{{path}}` variables only. Anything else mustache knows (sections, partials,
 * comments, triple braces, delimiter changes) or a text it cannot parse is rule `format`; a variable outside the
 * list is rule `unknown_variable`.
 */
const TemplateText = (): PropertyDecorator =>
  applyDecorators(
    ValidateBy({
      name: 'format',
      validator: {
        validate: (value: unknown) => issueOf(value)?.rule !== 'format',
        defaultMessage: (args) => issueOf(args?.value)?.message ?? 'Invalid template text.',
      },
    }),
    ValidateBy({
      name: 'unknown_variable',
      validator: {
        validate: (value: unknown) => issueOf(value)?.rule !== 'unknown_variable',
        defaultMessage: (args) => issueOf(args?.value)?.message ?? 'Unknown template variable.',
      },
    }),
  );

const SYNTAX = `Plain text with \`{{path}}\` variables only; paths: ${TEMPLATE_VARIABLES_DESCRIPTION}.`;

export class CreateEmailTemplateVersionRequest {
  @ApiProperty({ minLength: 1, maxLength: MAX_SUBJECT_LENGTH, description: `${SYNTAX} Line breaks in values are removed.` })
  @IsString()
  @Length(1, MAX_SUBJECT_LENGTH)
  @TemplateText()
  subject!: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_BODY_TEXT_LENGTH, description: SYNTAX })
  @IsString()
  @Length(1, MAX_BODY_TEXT_LENGTH)
  @TemplateText()
  bodyText!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_BODY_HTML_LENGTH, description: `${SYNTAX} Values are HTML-escaped. Absent or null: text only.` })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(MAX_BODY_HTML_LENGTH)
  @TemplateText()
  bodyHtml?: string | null;
}

export class ListEmailTemplateVersionsParams extends NewestFirstPageParams {
  @ApiPropertyOptional({ enum: EMAIL_TEMPLATE_VERSION_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...EMAIL_TEMPLATE_VERSION_STATUSES])
  status?: EmailTemplateVersionStatus;
}

const OptionalText = (max: number, nullable = false): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: max, ...(nullable ? { nullable: true } : {}) }),
    nullable ? ValidateIf((_object, value) => value !== undefined && value !== null) : WhenPresent(),
    IsString(),
    MaxLength(max),
  );

export class RenderTenantContext {
  @OptionalText(200)
  name?: string;
}

export class RenderDeviceContext {
  @OptionalText(200, true)
  name?: string | null;

  @OptionalText(16, true)
  devEui?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Metadata strings (≤ 50).' })
  @WhenPresent()
  @MetadataRules()
  metadata?: Record<string, string>;
}

export class RenderUnitContext {
  @OptionalText(200)
  name?: string;

  @OptionalText(64)
  key?: string;
}

export class RenderFlowContext {
  @OptionalText(200)
  name?: string;
}

/** What a preview renders with; every part may be left out (a missing value prints ""). */
export class RenderContextRequest {
  @ApiPropertyOptional({ type: RenderTenantContext })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => RenderTenantContext)
  tenant?: RenderTenantContext;

  @ApiPropertyOptional({ type: RenderDeviceContext })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => RenderDeviceContext)
  device?: RenderDeviceContext;

  @ApiPropertyOptional({ type: RenderUnitContext, nullable: true, description: 'null: the device is unassigned.' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => RenderUnitContext)
  organizationUnit?: RenderUnitContext | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Field values by field key (`{{values.<fieldKey>}}`).' })
  @WhenPresent()
  @IsObject()
  values?: Record<string, unknown>;

  @OptionalText(64, true)
  observedAt?: string | null;

  @ApiPropertyOptional({ type: RenderFlowContext })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => RenderFlowContext)
  flow?: RenderFlowContext;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Parameter values by key (`{{parameters.<key>}}`).' })
  @WhenPresent()
  @IsObject()
  parameters?: Record<string, unknown>;
}

/** Either a context, or an execution of this tenant whose values are used; neither renders every variable as "". */
export class RenderEmailTemplateVersionRequest {
  @ApiPropertyOptional({ type: RenderContextRequest })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => RenderContextRequest)
  context?: RenderContextRequest;

  @ApiPropertyOptional({ format: 'uuid', description: 'An execution of this tenant: its values, `observedAt` and parameters, with the names as they are now. Not together with `context`.' })
  @WhenPresent()
  @IsUUID()
  flowExecutionId?: string;
}
