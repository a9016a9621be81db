/**
 * The refresh cookie's names: `__Host-` prefixed when the cookie is Secure (REFRESH_COOKIE_SECURE=true), plain
 * otherwise (a browser refuses a `__Host-` cookie over plain HTTP). The cookie is set by identity and named in the
 * OpenAPI document.
 */
export const SECURE_COOKIE_NAME = '__Host-platform_refresh';
export const PLAIN_COOKIE_NAME = 'platform_refresh';
