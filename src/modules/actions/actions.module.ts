import { Module } from '@nestjs/common';
import { FlowActionRequests } from './persistence/flow-action-requests';
import { EMAIL_TEMPLATE_LOOKUP, StoredEmailTemplates } from './persistence/email-template-lookup';
import { ActionKillSwitches } from './persistence/action-kill-switches';
import { RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE } from './domain/delivery-ports';
import { StoredRecipientResolver } from './persistence/recipient-resolver';
import { ExecutionRenderContextReader } from './persistence/render-context.reader';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { EmailTemplateStore } from './persistence/email-template.store';
import { RecipientBindingRepository } from './persistence/recipient-binding.repository';
import { EmailTemplatesController } from './email-templates.controller';
import { EmailTemplateVersionsController } from './email-template-versions.controller';
import { RecipientBindingsController } from './recipient-bindings.controller';
import { CreateEmailTemplateHandler } from './create-email-template/create-email-template.handler';
import { ListEmailTemplatesHandler } from './list-email-templates/list-email-templates.handler';
import { GetEmailTemplateHandler } from './get-email-template/get-email-template.handler';
import { UpdateEmailTemplateHandler } from './update-email-template/update-email-template.handler';
import { ActivateEmailTemplateHandler } from './activate-email-template/activate-email-template.handler';
import { CreateEmailTemplateVersionHandler } from './create-email-template-version/create-email-template-version.handler';
import { ListEmailTemplateVersionsHandler } from './list-email-template-versions/list-email-template-versions.handler';
import { GetEmailTemplateVersionHandler } from './get-email-template-version/get-email-template-version.handler';
import { ChangeEmailTemplateVersionStatusHandler } from './change-email-template-version-status/change-email-template-version-status.handler';
import { RenderEmailTemplateVersionHandler } from './render-email-template-version/render-email-template-version.handler';
import { CreateRecipientBindingHandler } from './create-recipient-binding/create-recipient-binding.handler';
import { ListRecipientBindingsHandler } from './list-recipient-bindings/list-recipient-bindings.handler';
import { GetRecipientBindingHandler } from './get-recipient-binding/get-recipient-binding.handler';
import { UpdateRecipientBindingHandler } from './update-recipient-binding/update-recipient-binding.handler';
import { ChangeRecipientBindingStatusHandler } from './change-recipient-binding-status/change-recipient-binding-status.handler';

/** Templates, versions and recipient bindings: what an admin configures. */
const AUTHORING_PROVIDERS = [
  EmailTemplateStore,
  RecipientBindingRepository,
  CreateEmailTemplateHandler,
  ListEmailTemplatesHandler,
  GetEmailTemplateHandler,
  UpdateEmailTemplateHandler,
  ActivateEmailTemplateHandler,
  CreateEmailTemplateVersionHandler,
  ListEmailTemplateVersionsHandler,
  GetEmailTemplateVersionHandler,
  ChangeEmailTemplateVersionStatusHandler,
  RenderEmailTemplateVersionHandler,
  CreateRecipientBindingHandler,
  ListRecipientBindingsHandler,
  GetRecipientBindingHandler,
  UpdateRecipientBindingHandler,
  ChangeRecipientBindingStatusHandler,
];

/**
 * Flow actions: the e-mail templates and their versions (`email_templates`, `email_template_versions`) and the
 * action requests live executions record (`flow_action_requests`). Flows look templates up through
 * `EMAIL_TEMPLATE_LOOKUP`; processing records requests through `FlowActionRequests` in its transaction; a new
 * tenant gets its kill-switch (`action_kill_switches`) through `ActionKillSwitches`. Delivery resolves an action's
 * recipients from the recipient bindings through `RECIPIENT_RESOLVER` and renders against an execution through
 * `RENDER_CONTEXT_SOURCE`. Admins author templates, their versions (release, deprecate, activate) and recipient
 * bindings through the e-mail template and recipient binding routes, and preview a version with `render`.
 */
@Module({
  imports: [PaginationModule],
  controllers: [EmailTemplatesController, EmailTemplateVersionsController, RecipientBindingsController],
  providers: [
    ...AUTHORING_PROVIDERS,
    FlowActionRequests,
    ActionKillSwitches,
    { provide: EMAIL_TEMPLATE_LOOKUP, useClass: StoredEmailTemplates },
    { provide: RECIPIENT_RESOLVER, useClass: StoredRecipientResolver },
    { provide: RENDER_CONTEXT_SOURCE, useClass: ExecutionRenderContextReader },
  ],
  exports: [FlowActionRequests, ActionKillSwitches, EMAIL_TEMPLATE_LOOKUP, RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE],
})
export class ActionsModule {}
