import type { EntityManager } from 'typeorm';
import type { EmailRenderContext } from './template-syntax';

/** Why a recipient gets no e-mail although a binding names it. */
export type RecipientSuppression = 'recipient_out_of_scope';

/** One recipient of an action request, after binding matching and deduplication. */
export interface ResolvedRecipient {
  /** Lower-cased; unique within one resolution. */
  email: string;
  recipientBindingId: string;
  userId: string | null;
  /** Set when the recipient must not receive this device's e-mail (a `user` without a grant covering it). */
  suppressedReason: RecipientSuppression | null;
}

/**
 * Who an `email-action` request of a device goes to: the template's active bindings whose device type is null or
 * the device's, and whose unit is null or covers the device's current unit (itself, or an ancestor with
 * `includeDescendants`); deduplicated by lower-cased address, at most 50, in a stable order. Reads through
 * `manager` (called inside the execution's transaction).
 */
export interface RecipientResolver {
  resolve(
    manager: EntityManager,
    request: { tenantId: string; emailTemplateId: string; deviceId: string },
  ): Promise<ResolvedRecipient[]>;
}
export const RECIPIENT_RESOLVER = Symbol('RecipientResolver');

/**
 * The values a template renders for one flow execution of the tenant (device, unit, values, parameters, flow and
 * tenant names as they are now, values and `observedAt` as the execution produced them); null when the execution
 * does not exist in that tenant.
 */
export interface RenderContextSource {
  forExecution(manager: EntityManager, tenantId: string, flowExecutionId: string): Promise<EmailRenderContext | null>;
}
export const RENDER_CONTEXT_SOURCE = Symbol('RenderContextSource');
