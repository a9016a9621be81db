import type { Request } from 'express';

const MALFORMED_PARAM = /^Failed to decode param /;

interface RouteLayer {
  route?: { path?: unknown };
}

/** Express reports a path segment that is not valid percent-encoding (`/v1/tenants/%zz`) without naming it. */
export function isMalformedParamError(message: string): boolean {
  return MALFORMED_PARAM.test(message);
}

const decodes = (segment: string): boolean => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/**
 * The name of the route parameter whose raw segment is malformed percent-encoding, found by matching the raw
 * path against the route templates segment by segment (`:name` matches any one segment); undefined when no
 * route has that shape.
 */
export function malformedParamName(req: Request): string | undefined {
  const segments = (req.originalUrl ?? req.url).split('?')[0].split('/');
  const stack = ((req.app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? []) as RouteLayer[];
  for (const layer of stack) {
    const template = layer.route?.path;
    if (typeof template !== 'string' || template.includes('*')) continue;
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    let name: string | undefined;
    const matches = parts.every((part, i) => {
      if (part.startsWith(':')) {
        if (!name && !decodes(segments[i])) name = part.slice(1);
        return segments[i] !== '';
      }
      return part === segments[i];
    });
    if (matches && name) return name;
  }
  return undefined;
}
