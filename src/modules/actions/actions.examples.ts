/**
 * Examples of the e-mail template, version and recipient binding schemas and of the parameters of their routes,
 * attached to the actions controllers with @ApiDocs.
 */
import { DEVICE_TYPE_ID, IF_MATCH, TENANT_ID, TENANT_NUMBER, UNIT_ID, USER_ID, page, user } from '../../shared/http/example-values';

const EMAIL_TEMPLATE_ID = '0f3e6b2a-7c14-4d89-b5a2-91e8c7d6f503';
const EMAIL_TEMPLATE_VERSION_ID = 'd2b7e4c1-58a3-4f60-8e19-3c6a5b4d7e82';
const RECIPIENT_BINDING_ID = '64a1f8d3-2e57-4b9c-a0d6-7f3e2c1b5a94';
const FLOW_EXECUTION_ID = 'a93c5e71-4b2d-4f08-86e1-2d7c9b0a4f36';

const template = {
  emailTemplateId: EMAIL_TEMPLATE_ID,
  tenantId: TENANT_ID,
  key: 'leak-alert',
  name: 'Leak alert',
  description: 'Sent by the leak detection flow when a pipe sensor reports water.',
  activeVersionId: EMAIL_TEMPLATE_VERSION_ID,
  activeVersionNumber: 3,
  lockVersion: 4,
  createdAt: '2026-02-03T09:12:44.201Z',
  updatedAt: '2026-03-02T15:40:08.930Z',
};

const versionSummary = {
  emailTemplateVersionId: EMAIL_TEMPLATE_VERSION_ID,
  emailTemplateId: EMAIL_TEMPLATE_ID,
  tenantId: TENANT_ID,
  versionNumber: 3,
  status: 'released',
  subject: 'Leak at {{device.name}} ({{organizationUnit.name}})',
  createdAt: '2026-03-02T15:31:10.004Z',
  releasedAt: '2026-03-02T15:38:55.617Z',
  deprecatedAt: null,
};

const versionBodies = {
  subject: versionSummary.subject,
  bodyText: 'Water detected by {{device.name}} ({{device.devEui}}) at {{observedAt}}.\nLevel: {{values.leak.level}} (threshold {{parameters.threshold}}).\n\n{{tenant.name}} - {{flow.name}}',
  bodyHtml: '<p>Water detected by <b>{{device.name}}</b> at {{observedAt}}.</p><p>Level: {{values.leak.level}} (threshold {{parameters.threshold}}).</p>',
};

const binding = {
  recipientBindingId: RECIPIENT_BINDING_ID,
  tenantId: TENANT_ID,
  emailTemplateId: EMAIL_TEMPLATE_ID,
  recipientType: 'user',
  userId: USER_ID,
  email: user.email,
  deviceTypeId: DEVICE_TYPE_ID,
  organizationUnitId: UNIT_ID,
  includeDescendants: true,
  status: 'active',
  createdAt: '2026-03-02T15:45:19.377Z',
  updatedAt: '2026-03-02T15:45:19.377Z',
};

export const ACTIONS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  EmailTemplateResponse: template,
  EmailTemplatePage: page([template], 6),
  CreateEmailTemplateRequest: { key: 'leak-alert', name: 'Leak alert', description: 'Sent by the leak detection flow when a pipe sensor reports water.' },
  UpdateEmailTemplateRequest: { name: 'Leak alert (water network)' },
  ActivateEmailTemplateRequest: { emailTemplateVersionId: EMAIL_TEMPLATE_VERSION_ID },
  EmailTemplateVersionSummary: versionSummary,
  EmailTemplateVersionResponse: { ...versionSummary, ...versionBodies },
  EmailTemplateVersionPage: page([versionSummary]),
  CreateEmailTemplateVersionRequest: versionBodies,
  RenderEmailTemplateVersionRequest: { flowExecutionId: FLOW_EXECUTION_ID },
  RenderContextRequest: {
    tenant: { name: 'Acme Water Utilities' },
    device: { name: 'Pipe sensor 7', devEui: '70B3D57ED005A1C4', metadata: { floor: '2' } },
    organizationUnit: { name: 'Boiler room', key: 'boiler-room' },
    values: { 'leak.level': 0.82 },
    observedAt: '2026-03-14T09:26:53.589Z',
    flow: { name: 'Leak detection' },
    parameters: { threshold: 0.5 },
  },
  RenderedEmailResponse: {
    subject: 'Leak at Pipe sensor 7 (Boiler room)',
    bodyText: 'Water detected by Pipe sensor 7 (70B3D57ED005A1C4) at 2026-03-14T09:26:53.589Z.\nLevel: 0.82 (threshold 0.5).\n\nAcme Water Utilities - Leak detection',
    bodyHtml: '<p>Water detected by <b>Pipe sensor 7</b> at 2026-03-14T09:26:53.589Z.</p><p>Level: 0.82 (threshold 0.5).</p>',
  },
  RecipientBindingResponse: binding,
  RecipientBindingPage: page([binding, { ...binding, recipientBindingId: '8c2d4f61-a3b5-47e9-9d10-5e6f7a8b9c0d', recipientType: 'email', userId: null, email: 'night-shift@acme-water.example', deviceTypeId: null, organizationUnitId: null }], 2),
  CreateRecipientBindingRequest: { emailTemplateId: EMAIL_TEMPLATE_ID, recipientType: 'user', userId: USER_ID, deviceTypeId: DEVICE_TYPE_ID, organizationUnitId: UNIT_ID, includeDescendants: true },
  UpdateRecipientBindingRequest: { organizationUnitId: null },
};

export const ACTIONS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  templateId: EMAIL_TEMPLATE_ID,
  versionId: EMAIL_TEMPLATE_VERSION_ID,
  bindingId: RECIPIENT_BINDING_ID,
  'If-Match': IF_MATCH,
};

