import { Route } from 'react-router';
import { canTenantWide } from '../auth/me';
import { EmailDeliveriesPage } from '../pages/email/EmailDeliveriesPage';
import { EmailSettingsPage } from '../pages/email/EmailSettingsPage';
import { EmailTemplatePage } from '../pages/email/EmailTemplatePage';
import { EmailTemplatesPage } from '../pages/email/EmailTemplatesPage';
import type { ConsoleArea } from './area';

/** E-mail actions: templates and their versions, recipient bindings, the delivery log with dead letters, the kill-switch. */
export const emailArea: ConsoleArea = {
  tenantRoutes: (
    <>
      <Route path="email-templates" element={<EmailTemplatesPage />} />
      <Route path="email-templates/:templateId" element={<EmailTemplatePage />} />
      <Route path="email-deliveries" element={<EmailDeliveriesPage />} />
      <Route path="email-settings" element={<EmailSettingsPage />} />
    </>
  ),
  // Every e-mail route needs `actions:read` through a tenant-level grant.
  tenantNav: (tenantNumber, me) =>
    canTenantWide(me, tenantNumber, 'actions:read')
      ? [
          { to: `/t/${tenantNumber}/email-templates`, label: 'E-mail templates' },
          { to: `/t/${tenantNumber}/email-deliveries`, label: 'E-mail deliveries' },
          { to: `/t/${tenantNumber}/email-settings`, label: 'E-mail settings' },
        ]
      : [],
};
