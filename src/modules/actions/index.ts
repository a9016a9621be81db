/** What other modules may use of the actions module. */
export { ActionsModule } from './actions.module';
export { FlowActionRequests, type ActionRequest } from './persistence/flow-action-requests';
export { EMAIL_TEMPLATE_LOOKUP, type EmailTemplateInfo, type EmailTemplateLookup } from './persistence/email-template-lookup';
export { ActionKillSwitches } from './persistence/action-kill-switches';
export { EmailDeliveryLinks, type EmailDeliveryLink } from './persistence/email-delivery-links';
