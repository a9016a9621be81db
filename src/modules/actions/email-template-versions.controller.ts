import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { ACTIONS_PARAMETER_EXAMPLES, ACTIONS_SCHEMA_EXAMPLES } from './actions.examples';
import { Route, WriteById } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import type { VersionAction } from '../../shared/versioning/version-store';
import { ChangeEmailTemplateVersionStatusCommand } from './change-email-template-version-status/change-email-template-version-status.command';
import { CreateEmailTemplateVersionCommand } from './create-email-template-version/create-email-template-version.command';
import {
  CreateEmailTemplateVersionRequest,
  ListEmailTemplateVersionsParams,
  RenderEmailTemplateVersionRequest,
} from './dto/email-template-version.request.dto';
import { EmailTemplateVersionPage, EmailTemplateVersionResponse, RenderedEmailResponse } from './dto/email-template-version.response.dto';
import { EMAIL_TEMPLATE_VERSIONS_DOCS } from './email-template-versions.docs';
import { GetEmailTemplateVersionQuery } from './get-email-template-version/get-email-template-version.query';
import { ListEmailTemplateVersionsQuery } from './list-email-template-versions/list-email-template-versions.query';
import { RenderEmailTemplateVersionQuery } from './render-email-template-version/render-email-template-version.query';

const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const NOT_FOUND =
  'The template or the version is missing, the version belongs to another template, or the template is in a tenant the caller holds no effective grant in.';

/** The immutable versions of an e-mail template, their release and deprecation, and previews. */
@ApiTags('email-templates')
@ApiBearerAuth()
@ApiDocs(EMAIL_TEMPLATE_VERSIONS_DOCS, { schemas: ACTIONS_SCHEMA_EXAMPLES, parameters: ACTIONS_PARAMETER_EXAMPLES })
@Controller('v1/email-templates/:templateId/versions')
export class EmailTemplateVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'emailTemplateVersions_list',
    permission: 'actions:read',
    type: EmailTemplateVersionPage,
    description: 'Newest first by versionNumber; no bodies.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  list(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @Query() params: ListEmailTemplateVersionsParams,
  ): Promise<EmailTemplateVersionPage> {
    return this.queryBus.execute(new ListEmailTemplateVersionsQuery(caller, templateId, params));
  }

  @Route('post', '', {
    operationId: 'emailTemplateVersions_create',
    permission: 'actions:write',
    type: EmailTemplateVersionResponse,
    location: '/v1/email-templates/{emailTemplateId}/versions/{emailTemplateVersionId}',
    description: 'A `draft`; `Location: /v1/email-templates/{templateId}/versions/{versionId}`.',
    badRequest: 'Lengths; `format` (anything but `{{path}}`: sections, partials, comments, triple braces, delimiter changes, unparsable text) or `unknown_variable` on `body.subject`, `body.bodyText`, `body.bodyHtml`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @Body() body: CreateEmailTemplateVersionRequest,
  ): Promise<EmailTemplateVersionResponse> {
    return this.commandBus.execute(new CreateEmailTemplateVersionCommand(caller, templateId, body));
  }

  @Route('get', ':versionId', {
    operationId: 'emailTemplateVersions_get',
    permission: 'actions:read',
    type: EmailTemplateVersionResponse,
    description: 'With `bodyText` and `bodyHtml`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @UuidParam('versionId') versionId: string,
  ): Promise<EmailTemplateVersionResponse> {
    return this.queryBus.execute(new GetEmailTemplateVersionQuery(caller, templateId, versionId));
  }

  @WriteById('post', ':versionId/release', {
    operationId: 'emailTemplateVersions_release',
    permission: 'actions:release',
    type: EmailTemplateVersionResponse,
    description: '`released` with `releasedAt`; not activated.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a draft is released.',
  })
  release(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @UuidParam('versionId') versionId: string,
  ): Promise<EmailTemplateVersionResponse> {
    return this.change(caller, templateId, versionId, 'release');
  }

  @WriteById('post', ':versionId/deprecate', {
    operationId: 'emailTemplateVersions_deprecate',
    permission: 'actions:release',
    type: EmailTemplateVersionResponse,
    description: 'Deprecated template version: `deprecated` with `deprecatedAt`; an active version stays active until another is activated, and can never be activated again.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a released version is deprecated.',
  })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @UuidParam('versionId') versionId: string,
  ): Promise<EmailTemplateVersionResponse> {
    return this.change(caller, templateId, versionId, 'deprecate');
  }

  @Route('post', ':versionId/render', {
    operationId: 'emailTemplateVersions_render',
    permission: 'actions:read',
    type: RenderedEmailResponse,
    status: 200,
    description: 'The rendered subject and bodies; nothing is sent or stored.',
    badRequest: '`body.flowExecutionId` `reference_not_found` (no execution of this tenant) or `mismatch` (given with `context`); context shape rules.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  render(
    @CurrentCaller() caller: Caller,
    @UuidParam('templateId') templateId: string,
    @UuidParam('versionId') versionId: string,
    @Body() body: RenderEmailTemplateVersionRequest,
  ): Promise<RenderedEmailResponse> {
    return this.queryBus.execute(new RenderEmailTemplateVersionQuery(caller, templateId, versionId, body));
  }

  private change(caller: Caller, templateId: string, versionId: string, action: VersionAction): Promise<EmailTemplateVersionResponse> {
    return this.commandBus.execute(new ChangeEmailTemplateVersionStatusCommand(caller, templateId, versionId, action));
  }
}
