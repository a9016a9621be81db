import createClient from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, apiErrorOf, networkError } from './errors';

/**
 * The access token lives in this module's memory only: never in storage, URLs or logs. A reload loses it and
 * the session is restored through the refresh cookie (`POST /v1/auth/refresh`), which is HttpOnly and scoped to
 * /v1/auth, so script never sees it.
 */
let accessToken: string | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let inflightRefresh: Promise<RefreshOutcome> | null = null;
const listeners = new Set<(event: SessionEvent) => void>();

export type SessionEvent = { type: 'signed-in' | 'refreshed' | 'signed-out' | 'origin-not-allowed' };
export type TokenBody = paths['/v1/auth/refresh']['post']['responses']['200']['content']['application/json'];
export type RefreshOutcome = { ok: true; token: TokenBody } | { ok: false; error: ApiError };

export function onSessionEvent(listener: (event: SessionEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: SessionEvent): void {
  for (const listener of listeners) listener(event);
}

export function hasAccessToken(): boolean {
  return accessToken !== null;
}

/** Keeps a fresh token and renews it shortly before it expires (a fifth of its life, at most a minute, early). */
export function acceptToken(token: TokenBody, event: SessionEvent['type'] = 'refreshed'): void {
  accessToken = token.accessToken;
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  const lead = Math.min(60, token.expiresInSeconds / 5);
  refreshTimer = setTimeout(() => void refreshSession(), Math.max(1, token.expiresInSeconds - lead) * 1000);
  emit({ type: event });
}

export function forgetToken(): void {
  accessToken = null;
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  refreshTimer = null;
  emit({ type: 'signed-out' });
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function postRefresh(): Promise<Response> {
  return fetch('/v1/auth/refresh', { method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json' } });
}

/**
 * One refresh at a time (concurrent callers share it). A 409 with Retry-After means another tab refreshed the
 * same session a moment ago: waiting and retrying once picks up the rotated cookie.
 */
export function refreshSession(): Promise<RefreshOutcome> {
  inflightRefresh ??= (async (): Promise<RefreshOutcome> => {
    try {
      let response = await postRefresh();
      if (response.status === 409 && response.headers.get('Retry-After') !== null) {
        await sleep(Number(response.headers.get('Retry-After')) * 1000 || 1000);
        response = await postRefresh();
      }
      const body = await readJson(response);
      if (response.ok) {
        acceptToken(body as TokenBody);
        return { ok: true, token: body as TokenBody };
      }
      const error = apiErrorOf(response, body);
      if (error.reason === 'origin_not_allowed') emit({ type: 'origin-not-allowed' });
      if (response.status === 401 || response.status === 403) {
        accessToken = null;
        if (refreshTimer !== null) clearTimeout(refreshTimer);
        emit({ type: 'signed-out' });
      }
      return { ok: false, error };
    } catch (error) {
      return { ok: false, error: networkError(error) };
    } finally {
      inflightRefresh = null;
    }
  })();
  return inflightRefresh;
}

const NO_RETRY = ['/v1/auth/login', '/v1/auth/refresh', '/v1/auth/logout'];

/** fetch with the bearer token; a 401 renews the token once and repeats the request. */
async function authorizedFetch(input: Request): Promise<Response> {
  const retry = input.clone();
  const send = (request: Request) => {
    if (accessToken !== null) request.headers.set('Authorization', `Bearer ${accessToken}`);
    return fetch(request);
  };
  const response = await send(input);
  if (response.status !== 401 || NO_RETRY.some((path) => new URL(input.url).pathname === path)) return response;
  const outcome = await refreshSession();
  return outcome.ok ? send(retry) : response;
}

export const api = createClient<paths>({ baseUrl: '', fetch: authorizedFetch, credentials: 'same-origin' });

/** The data of an openapi-fetch result, or its envelope as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw networkError(error);
  }
  if (!result.response.ok) throw apiErrorOf(result.response, result.error);
  return result.data as T;
}
