/** What other modules may use of the actions module. */
export { ActionsModule } from './actions.module';
export { FlowActionRequests, type ActionRequest } from './action-requests/flow-action-requests';
export { EMAIL_TEMPLATE_LOOKUP, type EmailTemplateInfo, type EmailTemplateLookup } from './email-templates/email-template-lookup';
export { ActionKillSwitches } from './kill-switch/action-kill-switches';
