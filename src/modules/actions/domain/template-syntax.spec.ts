import { checkTemplateText, renderEmail, type EmailRenderContext } from './template-syntax';

const context: EmailRenderContext = {
  tenant: { name: 'Acme' },
  device: { name: 'Freezer <1>', devEui: '0011223344556677', metadata: { 'room.no': '12', site: 'A&B' } },
  organizationUnit: { name: 'Plant', key: 'plant' },
  values: { temperature: -18.5, door: true, info: { a: 1 } },
  observedAt: '2026-11-27T10:00:00.000Z',
  flow: { name: 'Cold chain' },
  parameters: { limit: 5, note: 'line1\r\nBcc: evil@example.com' },
};

describe('e-mail template syntax', () => {
  it.each([
    ['{{#values.door}}x{{/values.door}}', 'format', 'sections'],
    ['{{^values.door}}x{{/values.door}}', 'format', 'inverted sections'],
    ['{{>partial}}', 'format', 'partials'],
    ['{{{device.name}}}', 'format', 'triple braces'],
    ['{{&device.name}}', 'format', 'unescaped'],
    ['{{! note }}', 'format', 'comments'],
    ['{{=<% %>=}}', 'format', 'delimiter'],
    ['{{device.name', 'format', 'syntax error'],
    ['{{device.secret}}', 'unknown_variable', 'device.secret'],
    ['{{values.}}', 'unknown_variable', 'values.'],
    ['{{.}}', 'unknown_variable', '{{.}}'],
  ])('refuses %s', (text, rule, words) => {
    const issue = checkTemplateText(text);
    expect(issue?.rule).toBe(rule);
    expect(issue?.message).toContain(words);
  });

  it('accepts plain variables with spaces inside the braces', () => {
    expect(checkTemplateText('{{ device.name }} at {{values.temperature}} {{device.metadata.room.no}}')).toBeNull();
  });

  it('renders, escaping HTML only in the HTML body and removing line breaks from the subject', () => {
    const rendered = renderEmail(
      {
        subject: '{{device.name}}: {{parameters.note}}\n{{values.temperature}}',
        bodyText: '{{device.metadata.room.no}} {{device.metadata.site}} {{values.info}} {{values.missing}}|{{organizationUnit.key}}',
        bodyHtml: '<b>{{device.name}}</b> {{device.metadata.site}}',
      },
      context,
    );
    expect(rendered.subject).toBe('Freezer <1>: line1 Bcc: evil@example.com -18.5');
    expect(rendered.text).toBe('12 A&B {"a":1} |plant');
    expect(rendered.html).toBe('<b>Freezer &lt;1&gt;</b> A&amp;B');
  });

  it('prints a missing unit as empty and never interprets values as template text', () => {
    const rendered = renderEmail(
      { subject: 's', bodyText: '{{organizationUnit.name}}|{{parameters.note}}', bodyHtml: null },
      { ...context, organizationUnit: null, parameters: { note: '{{tenant.name}}' } },
    );
    expect(rendered).toEqual({ subject: 's', text: '|{{tenant.name}}', html: null });
  });
});
