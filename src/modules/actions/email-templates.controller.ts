import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { IfMatch } from '../../shared/concurrency/if-match';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ACTIONS_PARAMETER_EXAMPLES, ACTIONS_SCHEMA_EXAMPLES } from './actions.examples';
import { ActivateEmailTemplateCommand } from './activate-email-template/activate-email-template.command';
import { CreateEmailTemplateCommand } from './create-email-template/create-email-template.command';
import { ActivateEmailTemplateRequest, CreateEmailTemplateRequest, ListEmailTemplatesParams, UpdateEmailTemplateRequest } from './dto/email-template.request.dto';
import { EmailTemplatePage, EmailTemplateResponse } from './dto/email-template.response.dto';
import { EMAIL_TEMPLATES_DOCS } from './email-templates.docs';
import { GetEmailTemplateQuery } from './get-email-template/get-email-template.query';
import { ListEmailTemplatesQuery } from './list-email-templates/list-email-templates.query';
import { UpdateEmailTemplateCommand } from './update-email-template/update-email-template.command';

const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `email_template`).';

@ApiTags('email-templates')
@ApiBearerAuth()
@ApiDocs(EMAIL_TEMPLATES_DOCS, { schemas: ACTIONS_SCHEMA_EXAMPLES, parameters: ACTIONS_PARAMETER_EXAMPLES })
@Controller('v1')
export class EmailTemplatesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/email-templates', {
    operationId: 'emailTemplates_list',
    permission: 'actions:read',
    type: EmailTemplatePage,
    description: 'Ascending by (createdAt, emailTemplateId).',
    forbidden: FORBIDDEN,
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListEmailTemplatesParams): Promise<EmailTemplatePage> {
    return this.queryBus.execute(new ListEmailTemplatesQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/email-templates', {
    operationId: 'emailTemplates_create',
    permission: 'actions:write',
    type: EmailTemplateResponse,
    description: '`Location: /v1/email-templates/{emailTemplateId}`, `ETag: "1"`; no version yet.',
    location: '/v1/email-templates/{emailTemplateId}',
    etag: true,
    forbidden: FORBIDDEN,
    conflict: '`duplicate_key` (per tenant).',
  })
  create(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Body() body: CreateEmailTemplateRequest): Promise<EmailTemplateResponse> {
    return this.commandBus.execute(new CreateEmailTemplateCommand(caller, tenantNumber, body));
  }

  @ReadById('email-templates/:templateId', {
    operationId: 'emailTemplates_get',
    permission: 'actions:read',
    type: EmailTemplateResponse,
    description: 'With `ETag: "<lockVersion>"`.',
    etag: true,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('templateId') templateId: string): Promise<EmailTemplateResponse> {
    return this.queryBus.execute(new GetEmailTemplateQuery(caller, templateId));
  }

  @WriteById('patch', 'email-templates/:templateId', {
    operationId: 'emailTemplates_update',
    permission: 'actions:write',
    type: EmailTemplateResponse,
    description: 'lockVersion + 1, new `ETag`. `key` is immutable (`unknown_property`).',
    etag: true,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`).',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: UpdateEmailTemplateRequest,
  ): Promise<EmailTemplateResponse> {
    return this.commandBus.execute(new UpdateEmailTemplateCommand(caller, templateId, expectedLockVersion, { ...body }));
  }

  @WriteById('post', 'email-templates/:templateId/activate', {
    operationId: 'emailTemplates_activate',
    permission: 'actions:release',
    type: EmailTemplateResponse,
    description: 'The template with its new active version and a new `ETag`.',
    etag: true,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `version_not_released` (+`currentStatus`); `already_active`.',
  })
  activate(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: ActivateEmailTemplateRequest,
  ): Promise<EmailTemplateResponse> {
    return this.commandBus.execute(new ActivateEmailTemplateCommand(caller, templateId, expectedLockVersion, body.emailTemplateVersionId));
  }
}
