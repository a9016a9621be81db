import type { CookieOptions, Request, Response } from 'express';
import { AppConfig } from '../../../config/app-config';
import { PLAIN_COOKIE_NAME, SECURE_COOKIE_NAME } from '../../../shared/auth/refresh-cookie-names';
import { originNotAllowed } from '../../../shared/http/cors-preflight.middleware';

const MAX_AGE_SECONDS = 604800;

/** The refresh cookie: host-only, HttpOnly, SameSite=Strict, Path=/. */
export class RefreshCookie {
  constructor(private readonly config: AppConfig) {}

  get name(): string {
    return this.config.refreshCookieSecure ? SECURE_COOKIE_NAME : PLAIN_COOKIE_NAME;
  }

  read(req: Request): string | null {
    const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[this.name];
    return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : null;
  }

  set(res: Response, token: string): void {
    res.cookie(this.name, token, { ...this.options(), maxAge: MAX_AGE_SECONDS * 1000 });
  }

  clear(res: Response): void {
    res.clearCookie(this.name, this.options());
  }

  /**
   * Refresh and logout need an `Origin` the CORS policy allows (an exact ALLOWED_ORIGINS entry; in development
   * also local http origins), else 403 `origin_not_allowed` naming the origin and the setting.
   */
  assertAllowedOrigin(req: Request): void {
    const origin = req.headers.origin;
    if (!this.config.isOriginAllowed(origin)) throw originNotAllowed(origin, this.config);
  }

  private options(): CookieOptions {
    return { httpOnly: true, secure: this.config.refreshCookieSecure, sameSite: 'strict', path: '/' };
  }
}
