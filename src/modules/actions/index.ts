/** What other modules may use of the actions module. */
export { ActionsModule } from './actions.module';
export { FlowActionRequests, type ActionRequest } from './persistence/flow-action-requests';
export { EMAIL_TEMPLATE_LOOKUP, type EmailTemplateInfo, type EmailTemplateLookup } from './persistence/email-template-lookup';
export { ActionKillSwitches } from './persistence/action-kill-switches';
export { EmailDeliveryLinks, type EmailDeliveryLink } from './persistence/email-delivery-links';
export { RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE } from './domain/delivery-ports';
export type { RecipientResolver, RecipientSuppression, RenderContextSource, ResolvedRecipient } from './domain/delivery-ports';
export { StoredRecipientResolver, MAX_RECIPIENTS_PER_ACTION } from './persistence/recipient-resolver';
export { ExecutionRenderContextReader } from './persistence/render-context.reader';
