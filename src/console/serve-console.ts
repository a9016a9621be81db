import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Where `npm run build` puts the console (src/console and dist/console are both two levels below the root). */
export const CONSOLE_DIST = join(__dirname, '..', '..', 'console', 'dist');

export const CONSOLE_PATH = '/console';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** Vite names every emitted asset after its content hash, so a URL under /console/assets never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Uplink console</title></head>
<body><h1>The web console is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds what is stale) and reload.</p></body></html>`;

/**
 * Serves the web console at /console from the same origin as the API, so the refresh cookie (path /v1/auth) and
 * the Origin check work without any CORS setting:
 * - `/console/assets/*`: the hashed build output, cacheable for a year;
 * - any other `/console` path: the HTML entry (the console routes in the browser), `no-store` so a new build is
 *   picked up at once; the helmet Content-Security-Policy every answer carries allows scripts from this origin only;
 * - `/` asked for by a browser (HTML accepted) is redirected to the console; API clients keep the 404 envelope.
 * Missing assets fall through to the API's 404 envelope.
 */
export function setupConsole(app: NestExpressApplication, dist: string = CONSOLE_DIST): void {
  const indexFile = join(dist, 'index.html');
  const assets = join(dist, 'assets');
  // Read once: the build does not change under a running service (a rebuild comes with a restart).
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path;
    if (path === '/') {
      if (req.accepts(['json', 'html']) !== 'html') return next();
      return res.redirect(302, `${CONSOLE_PATH}/`);
    }
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (path.startsWith(`${CONSOLE_PATH}/assets/`)) return sendAsset(assets, path.slice(`${CONSOLE_PATH}/assets/`.length), res, next);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (index === null) return void res.status(503).send(NOT_BUILT);
    res.status(200).send(index);
  });
}

function sendAsset(root: string, name: string, res: Response, next: NextFunction): void {
  const file = normalize(join(root, decodeURIComponentSafe(name)));
  if (!file.startsWith(root + sep)) return next();
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return next();
    size = stat.size;
  } catch {
    return next();
  }
  res.setHeader('Content-Type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream');
  res.setHeader('Content-Length', String(size));
  res.setHeader('Cache-Control', IMMUTABLE);
  if (res.req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
