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
  const template = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return `${req.baseUrl ?? ''}${template}` || '/';
}
