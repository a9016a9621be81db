import { Module } from '@nestjs/common';
import { MailerModule, MailerOptions } from '@nestjs-modules/mailer';
import { HealthModule } from '../../health/health.module';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ActionKillSwitchController } from './action-kill-switch.controller';
import { ChangeKillSwitchHandler } from './change-kill-switch/change-kill-switch.handler';
import { ReleaseHeldDeliveriesJob } from './change-kill-switch/release-held-deliveries.job';
import { DeadLettersController } from './dead-letters.controller';
import { EmailDeliveriesController } from './email-deliveries.controller';
import { EmailTestSendsController } from './email-test-sends.controller';
import { GetDeadLetterHandler } from './get-dead-letter/get-dead-letter.handler';
import { GetEmailDeliveryHandler } from './get-email-delivery/get-email-delivery.handler';
import { GetKillSwitchHandler } from './get-kill-switch/get-kill-switch.handler';
import { ListDeadLettersHandler } from './list-dead-letters/list-dead-letters.handler';
import { ListEmailDeliveriesHandler } from './list-email-deliveries/list-email-deliveries.handler';
import { deliveryMetricProviders } from './mail/delivery-metrics';
import { MailHealth } from './mail/mail-health';
import { MailTransport } from './mail/mail-transport';
import { SmtpConnection, SmtpConnectionModule } from './mail/smtp-connection';
import { ActionKillSwitches } from './persistence/action-kill-switches';
import { DeliveryLogReader } from './persistence/delivery-log.reader';
import { RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE } from './domain/delivery-ports';
import { StoredRecipientResolver } from './persistence/recipient-resolver';
import { ExecutionRenderContextReader } from './persistence/render-context.reader';
import { EmailDeliveriesStore } from './persistence/email-deliveries.store';
import { EmailDeliveryLinks } from './persistence/email-delivery-links';
import { EMAIL_TEMPLATE_LOOKUP, StoredEmailTemplates } from './persistence/email-template-lookup';
import { FlowActionRequests } from './persistence/flow-action-requests';
import { RedriveDeadLetterHandler } from './redrive-dead-letter/redrive-dead-letter.handler';
import { RedriveDeadLetterJob } from './redrive-dead-letter/redrive-dead-letter.job';
import { ActionsRetentionJob } from './retention/actions-retention.job';
import { DeliverySender } from './send-email-deliveries/delivery-sender';
import { ExpandActionRequestsJob } from './send-email-deliveries/expand-action-requests.job';
import { SendEmailDeliveryJob } from './send-email-deliveries/send-email-delivery.job';
import { TestSendEmailHandler } from './test-send-email/test-send-email.handler';
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
 * Flow actions: the e-mail templates and their versions (`email_templates`, `email_template_versions`), the action
 * requests live executions record (`flow_action_requests`), and their delivery: one `email_deliveries` row per
 * recipient, sent over SMTP by jobs on any replica with retries, dead letters, the per-tenant kill-switch
 * (`action_kill_switches`) and flood control. Recipients come from the recipient bindings (`RECIPIENT_RESOLVER`),
 * render values from the execution (`RENDER_CONTEXT_SOURCE`). Flows look templates up through `EMAIL_TEMPLATE_LOOKUP`; processing
 * records requests through `FlowActionRequests` in its transaction and links an execution's deliveries through
 * `EmailDeliveryLinks`; a new tenant gets its kill-switch through `ActionKillSwitches`. Admins author templates,
 * their versions (release, deprecate, activate) and recipient bindings, and preview a version with `render`.
 */
@Module({
  imports: [
    PaginationModule,
    HealthModule,
    MailerModule.forRootAsync({
      imports: [SmtpConnectionModule],
      inject: [SmtpConnection],
      useFactory: (smtp: SmtpConnection): MailerOptions => ({ transport: smtp.transport as MailerOptions['transport'] }),
    }),
  ],
  controllers: [EmailTemplatesController, EmailTemplateVersionsController, RecipientBindingsController, EmailDeliveriesController, DeadLettersController, ActionKillSwitchController, EmailTestSendsController],
  providers: [
    ...AUTHORING_PROVIDERS,
    FlowActionRequests,
    ActionKillSwitches,
    { provide: EMAIL_TEMPLATE_LOOKUP, useClass: StoredEmailTemplates },
    { provide: RECIPIENT_RESOLVER, useClass: StoredRecipientResolver },
    { provide: RENDER_CONTEXT_SOURCE, useClass: ExecutionRenderContextReader },
    EmailDeliveriesStore,
    EmailDeliveryLinks,
    DeliveryLogReader,
    MailTransport,
    MailHealth,
    DeliverySender,
    ExpandActionRequestsJob,
    SendEmailDeliveryJob,
    ReleaseHeldDeliveriesJob,
    RedriveDeadLetterJob,
    ActionsRetentionJob,
    ListEmailDeliveriesHandler,
    GetEmailDeliveryHandler,
    ListDeadLettersHandler,
    GetDeadLetterHandler,
    RedriveDeadLetterHandler,
    GetKillSwitchHandler,
    ChangeKillSwitchHandler,
    TestSendEmailHandler,
    ...deliveryMetricProviders,
  ],
  exports: [FlowActionRequests, ActionKillSwitches, EMAIL_TEMPLATE_LOOKUP, RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE, EmailDeliveryLinks],
})
export class ActionsModule {}
