import { Module } from '@nestjs/common';
import { FlowActionRequests } from './persistence/flow-action-requests';
import { EMAIL_TEMPLATE_LOOKUP, StoredEmailTemplates } from './persistence/email-template-lookup';
import { ActionKillSwitches } from './persistence/action-kill-switches';

/**
 * Flow actions: the e-mail templates and their versions (`email_templates`, `email_template_versions`) and the
 * action requests live executions record (`flow_action_requests`). Flows look templates up through
 * `EMAIL_TEMPLATE_LOOKUP`; processing records requests through `FlowActionRequests` in its transaction; a new
 * tenant gets its kill-switch (`action_kill_switches`) through `ActionKillSwitches`.
 */
@Module({
  providers: [FlowActionRequests, ActionKillSwitches, { provide: EMAIL_TEMPLATE_LOOKUP, useClass: StoredEmailTemplates }],
  exports: [FlowActionRequests, ActionKillSwitches, EMAIL_TEMPLATE_LOOKUP],
})
export class ActionsModule {}
