import Mustache from 'mustache';

/**
 * E-mail template text: `{{path}}` variables and nothing else. Mustache parses the text (so its rules for
 * delimiters, whitespace and escaping are the well-known ones), and everything but plain text and a plain `{{path}}`
 * is refused: sections, inverted sections, partials, comments, triple braces, `{{&name}}` and delimiter changes.
 * Rendering walks the parsed tokens itself, so a value is never looked up by mustache's context rules (a metadata
 * key holding dots still names one key) and never parsed as template text.
 */

/** Why a template text was refused; `rule` is the validation rule reported on the field. */
export interface TemplateTextIssue {
  rule: 'format' | 'unknown_variable';
  message: string;
}

/** Everything a template may print, as the worker and the preview build it. */
export interface EmailRenderContext {
  tenant: { name: string };
  device: { name: string | null; devEui: string | null; metadata: Record<string, string> };
  /** The device's unit when the e-mail is rendered; null when unassigned. */
  organizationUnit: { name: string; key: string } | null;
  /** The field values the execution produced (current and time series merged). */
  values: Record<string, unknown>;
  observedAt: string | null;
  flow: { name: string };
  /** The parameter values the execution ran with. */
  parameters: Record<string, unknown>;
}

export interface EmailTemplateText {
  subject: string;
  bodyText: string;
  bodyHtml: string | null;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string | null;
}

/** The variable paths a template may use; a prefix ending in `.` takes any non-empty rest (a key). */
const FIXED_PATHS = new Set([
  'tenant.name',
  'device.name',
  'device.devEui',
  'organizationUnit.name',
  'organizationUnit.key',
  'observedAt',
  'flow.name',
]);
const KEYED_PREFIXES = ['device.metadata.', 'values.', 'parameters.'] as const;

export const TEMPLATE_VARIABLES_DESCRIPTION =
  'tenant.name, device.name, device.devEui, device.metadata.<key>, organizationUnit.name, organizationUnit.key, ' +
  'values.<fieldKey>, observedAt, flow.name, parameters.<key>';

// Mustache caches every parsed text; tenant input must not grow a process-wide cache.
Mustache.templateCache = undefined;

type Token = [type: string, value: string, start: number, end: number, ...rest: unknown[]];

const REFUSED: Record<string, string> = {
  '#': 'sections ({{#name}}) are not allowed',
  '^': 'inverted sections ({{^name}}) are not allowed',
  '/': 'section ends ({{/name}}) are not allowed',
  '>': 'partials ({{>name}}) are not allowed',
  '!': 'comments ({{!text}}) are not allowed',
  '&': 'unescaped variables ({{&name}}) are not allowed',
  '{': 'triple braces ({{{name}}}) are not allowed',
  '=': 'delimiter changes ({{=...=}}) are not allowed',
};

function tokensOf(text: string): Token[] | TemplateTextIssue {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(text, ['{{', '}}']) as unknown as Token[];
  } catch (error) {
    return { rule: 'format', message: `template syntax error: ${(error as Error).message}` };
  }
  return tokens;
}

/** Whether `path` is one a template may use. */
export function isTemplateVariable(path: string): boolean {
  if (FIXED_PATHS.has(path)) return true;
  return KEYED_PREFIXES.some((prefix) => path.startsWith(prefix) && path.length > prefix.length);
}

/** The first reason `text` is not a valid template text, or null when it is. */
export function checkTemplateText(text: string): TemplateTextIssue | null {
  const tokens = tokensOf(text);
  if (!Array.isArray(tokens)) return tokens;
  for (const [type, value, start] of tokens) {
    if (type === 'text') continue;
    if (type !== 'name') {
      // Mustache reports `{{{name}}}` as an `&` token.
      const kind = type === '&' && text.startsWith('{{{', start) ? '{' : type;
      const why = REFUSED[kind] ?? `{{${type}...}} is not allowed`;
      return { rule: 'format', message: `${why} at character ${start}: only {{path}} variables are allowed` };
    }
    if (!isTemplateVariable(value)) {
      return {
        rule: 'unknown_variable',
        message: `unknown variable {{${value}}} at character ${start}; allowed: ${TEMPLATE_VARIABLES_DESCRIPTION}`,
      };
    }
  }
  return null;
}

function valueAt(context: EmailRenderContext, path: string): unknown {
  switch (path) {
    case 'tenant.name':
      return context.tenant.name;
    case 'device.name':
      return context.device.name;
    case 'device.devEui':
      return context.device.devEui;
    case 'organizationUnit.name':
      return context.organizationUnit?.name;
    case 'organizationUnit.key':
      return context.organizationUnit?.key;
    case 'observedAt':
      return context.observedAt;
    case 'flow.name':
      return context.flow.name;
  }
  for (const prefix of KEYED_PREFIXES) {
    if (!path.startsWith(prefix)) continue;
    const key = path.slice(prefix.length);
    const source =
      prefix === 'values.' ? context.values : prefix === 'parameters.' ? context.parameters : context.device.metadata;
    return Object.prototype.hasOwnProperty.call(source, key) ? source[key] : undefined;
  }
  return undefined;
}

function printed(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"'`=/]/g, (c) => HTML_ESCAPES[c]);
const withoutLineBreaks = (text: string): string => text.replace(/[\r\n]+/g, ' ');

function renderText(text: string, context: EmailRenderContext, escape: (value: string) => string): string {
  const tokens = tokensOf(text);
  // Stored texts were checked at save; a text that no longer parses renders as written rather than failing a send.
  if (!Array.isArray(tokens)) return text;
  let out = '';
  for (const [type, value] of tokens) {
    if (type === 'text') out += value;
    else if (type === 'name' && isTemplateVariable(value)) out += escape(printed(valueAt(context, value)));
  }
  return out;
}

/**
 * The e-mail a version renders to: values HTML-escaped in the HTML body, line breaks removed from the subject (no
 * header injection, whatever a value holds), missing values printed as "".
 */
export function renderEmail(version: EmailTemplateText, context: EmailRenderContext): RenderedEmail {
  return {
    subject: withoutLineBreaks(renderText(version.subject, context, withoutLineBreaks)).trim(),
    text: renderText(version.bodyText, context, (value) => value),
    html: version.bodyHtml === null ? null : renderText(version.bodyHtml, context, escapeHtml),
  };
}
