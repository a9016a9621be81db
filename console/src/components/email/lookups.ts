import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import type { Choice } from '../FilterSelect';

export type EmailTemplate = components['schemas']['EmailTemplateResponse'];
export type TemplateVersionSummary = components['schemas']['EmailTemplateVersionSummary'];
export type TemplateVersion = components['schemas']['EmailTemplateVersionResponse'];
export type RecipientBinding = components['schemas']['RecipientBindingResponse'];
export type Delivery = components['schemas']['EmailDeliveryResponse'];
export type DeadLetter = components['schemas']['DeadLetterResponse'];
export type Rendered = components['schemas']['RenderedEmailResponse'];

/** The tenant's e-mail templates (first 100), for pickers, filters and names. */
export function useEmailTemplates(tenantNumber: number) {
  return useQuery({
    queryKey: ['email-templates', tenantNumber, 'all'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/email-templates', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
}

/** The tenant's members (first 100 memberships, one entry per user), for a `user` recipient. */
export function useTenantMembers(tenantNumber: number, enabled: boolean) {
  return useQuery({
    queryKey: ['memberships', tenantNumber, 'members'],
    enabled,
    queryFn: async () => {
      const page = await unwrap(api.GET('/v1/tenants/{tenantNumber}/memberships', { params: { path: { tenantNumber }, query: { limit: 100, status: 'active' } } }));
      const users = new Map<string, { userId: string; label: string }>();
      for (const membership of page.items) {
        users.set(membership.userId, { userId: membership.userId, label: `${membership.userDisplayName} <${membership.userEmail}>` });
      }
      return [...users.values()].sort((a, b) => a.label.localeCompare(b.label));
    },
  });
}

/** The tenant's flows (first 100), to choose an execution from. */
export function useFlows(tenantNumber: number) {
  return useQuery({
    queryKey: ['flows', tenantNumber, 'all'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/flows', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
}

/** E-mail templates as the choices of a select. */
export const templateChoices = (templates: readonly EmailTemplate[] | undefined): Choice[] | undefined =>
  templates?.map((template) => ({ value: template.emailTemplateId, label: template.name }));
