import type { Request } from 'express';

export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The matched route as a template (`/v1/devices/{deviceId}`), never the raw path: raw paths would leak ids into
 * metrics labels and audit filters and explode their cardinality.
 */
export function routeTemplateOf(req: Request): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  // Global middleware is mounted on a wildcard route (`/{*path}`); only a controller route counts as a match.
  if (typeof path !== 'string' || path.includes('*')) return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${templateOf(path)}` || '/';
}

/** Express path → template, worked out once per route (a handful of routes, asked on every request). */
const templates = new Map<string, string>();

function templateOf(path: string): string {
  let template = templates.get(path);
  if (template === undefined) {
    template = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    templates.set(path, template);
  }
  return template;
}
