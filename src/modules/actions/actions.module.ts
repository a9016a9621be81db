import { Module } from '@nestjs/common';
import { FlowActionRequests } from './action-requests/flow-action-requests';
import { EMAIL_TEMPLATE_LOOKUP, StoredEmailTemplates } from './email-templates/email-template-lookup';

/**
 * Flow actions: the e-mail templates and their versions (`email_templates`, `email_template_versions`) and the
 * action requests live executions record (`flow_action_requests`). Flows look templates up through
 * `EMAIL_TEMPLATE_LOOKUP`; processing records requests through `FlowActionRequests` in its transaction.
 */
@Module({
  providers: [FlowActionRequests, { provide: EMAIL_TEMPLATE_LOOKUP, useClass: StoredEmailTemplates }],
  exports: [FlowActionRequests, EMAIL_TEMPLATE_LOOKUP],
})
export class ActionsModule {}
