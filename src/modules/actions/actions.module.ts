import { Module } from '@nestjs/common';
import { FlowActionRequests } from './persistence/flow-action-requests';
import { EMAIL_TEMPLATE_LOOKUP, StoredEmailTemplates } from './persistence/email-template-lookup';
import { ActionKillSwitches } from './persistence/action-kill-switches';
import { RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE } from './domain/delivery-ports';
import { StoredRecipientResolver } from './persistence/recipient-resolver';
import { ExecutionRenderContextReader } from './persistence/render-context.reader';

/**
 * Flow actions: the e-mail templates and their versions (`email_templates`, `email_template_versions`) and the
 * action requests live executions record (`flow_action_requests`). Flows look templates up through
 * `EMAIL_TEMPLATE_LOOKUP`; processing records requests through `FlowActionRequests` in its transaction; a new
 * tenant gets its kill-switch (`action_kill_switches`) through `ActionKillSwitches`. Delivery resolves an action's
 * recipients from the recipient bindings through `RECIPIENT_RESOLVER` and renders against an execution through
 * `RENDER_CONTEXT_SOURCE`.
 */
@Module({
  providers: [
    FlowActionRequests,
    ActionKillSwitches,
    { provide: EMAIL_TEMPLATE_LOOKUP, useClass: StoredEmailTemplates },
    { provide: RECIPIENT_RESOLVER, useClass: StoredRecipientResolver },
    { provide: RENDER_CONTEXT_SOURCE, useClass: ExecutionRenderContextReader },
  ],
  exports: [FlowActionRequests, ActionKillSwitches, EMAIL_TEMPLATE_LOOKUP, RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE],
})
export class ActionsModule {}
