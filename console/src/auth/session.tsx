import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { acceptToken, api, forgetToken, onSessionEvent, refreshSession, unwrap, type TokenBody } from '../api/client';
import type { ApiError } from '../api/errors';

export type SessionState =
  | { status: 'restoring' }
  | { status: 'signed-out'; reason?: 'expired' | 'logged-out' }
  | { status: 'signed-in'; passwordChangeRequired: boolean }
  | { status: 'origin-not-allowed'; error: ApiError };

interface SessionApi {
  state: SessionState;
  signIn(identifier: string, password: string): Promise<void>;
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
  logout(everywhere?: boolean): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionProvider');
  return session;
}

/** Restores the session through the refresh cookie on load, then follows sign-in, refresh and sign-out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'restoring' });
  const queryClient = useQueryClient();

  useEffect(() => {
    const stop = onSessionEvent((event) => {
      if (event.type === 'signed-out') {
        queryClient.clear();
        setState((current) => (current.status === 'signed-in' ? { status: 'signed-out', reason: 'expired' } : current.status === 'origin-not-allowed' ? current : { status: 'signed-out' }));
      }
    });
    let cancelled = false;
    void refreshSession().then((outcome) => {
      if (cancelled) return;
      if (outcome.ok) setState({ status: 'signed-in', passwordChangeRequired: outcome.token.passwordChangeRequired });
      else if (outcome.error.reason === 'origin_not_allowed') setState({ status: 'origin-not-allowed', error: outcome.error });
      else setState({ status: 'signed-out' });
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [queryClient]);

  const begin = useCallback(
    (token: TokenBody) => {
      queryClient.clear();
      acceptToken(token, 'signed-in');
      setState({ status: 'signed-in', passwordChangeRequired: token.passwordChangeRequired });
    },
    [queryClient],
  );

  const signIn = useCallback(
    async (identifier: string, password: string) => {
      begin(await unwrap(api.POST('/v1/auth/login', { body: { identifier, password } })));
    },
    [begin],
  );

  const changePassword = useCallback(
    async (currentPassword: string, newPassword: string) => {
      begin(await unwrap(api.POST('/v1/auth/change-password', { body: { currentPassword, newPassword } })));
    },
    [begin],
  );

  const logout = useCallback(
    async (everywhere = false) => {
      try {
        await unwrap(everywhere ? api.POST('/v1/auth/logout-all') : api.POST('/v1/auth/logout'));
      } finally {
        forgetToken();
        queryClient.clear();
        setState({ status: 'signed-out', reason: 'logged-out' });
      }
    },
    [queryClient],
  );

  const value = useMemo(() => ({ state, signIn, changePassword, logout }), [state, signIn, changePassword, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
