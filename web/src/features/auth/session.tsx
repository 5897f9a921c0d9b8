import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo } from 'react';
import { api, setCsrfToken } from '../../api/client';
import { ApiError, toApiError } from '../../api/errors';
import { forgetPagesOnThisDevice } from '../pages/collab/device-copies';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  avatarUrl: string | null;
  /** Whether kb has verified the email (absent in older answers). */
  emailVerified?: boolean;
}

interface SessionValue {
  user: SessionUser | null;
  loading: boolean;
  signIn(email: string, password: string): Promise<void>;
  signUp(name: string, email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /** Takes over a browser session the service has just opened (a password reset): its user and CSRF token. */
  adoptSession(user: SessionUser, csrfToken: string): void;
}

const SessionContext = createContext<SessionValue | null>(null);
export const SESSION_KEY = ['session'] as const;

/** Another person's cached data must not outlive a sign-in or sign-out; the session query itself stays observed. */
function forgetOthers(client: ReturnType<typeof useQueryClient>) {
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
}

interface SessionBody {
  data: { user: SessionUser; csrfToken: string };
}

/**
 * Reads the cookie session once at boot; `null` when signed out. Keeps the CSRF token in memory only. A browser that
 * sent no session cookie got the signed-out shell (`<meta name="kb-session" content="none">`): it is signed out
 * without asking (the read would answer 401 into the console). The mark counts once: a later read asks.
 */
async function readSession(): Promise<SessionUser | null> {
  const signedOut = document.querySelector('meta[name="kb-session"][content="none"]');
  if (signedOut) {
    signedOut.remove();
    setCsrfToken(null);
    return null;
  }
  const res = await fetch('/api/v1/auth/session', { credentials: 'same-origin' });
  if (res.status === 401) {
    setCsrfToken(null);
    return null;
  }
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw toApiError(res.status, body);
  setCsrfToken((body as SessionBody).data.csrfToken);
  return (body as SessionBody).data.user;
}

/** The session read, as the provider and the first screen's early start (app/first-screen.ts) both ask for it. */
export const sessionQuery = { queryKey: SESSION_KEY, queryFn: readSession, staleTime: Number.POSITIVE_INFINITY, retry: false } as const;

export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const query = useQuery(sessionQuery);
  useSessionEndWatch(client);

  const signIn = useCallback(
    async (email: string, password: string) => {
      const { data, error, response } = await api.POST('/api/v1/auth/session', { body: { email, password } });
      if (!data) throw toApiError(response.status, error);
      setCsrfToken(data.data.csrfToken);
      forgetOthers(client);
      client.setQueryData(SESSION_KEY, data.data.user);
    },
    [client],
  );

  const signUp = useCallback(
    async (name: string, email: string, password: string) => {
      const { error, response } = await api.POST('/api/v1/auth/signup', { body: { name, email, password } });
      if (!response.ok) throw toApiError(response.status, error);
      await signIn(email, password);
    },
    [signIn],
  );

  const signOut = useCallback(async () => {
    await api.DELETE('/api/v1/auth/session').catch(() => undefined);
    void forgetPagesOnThisDevice();
    setCsrfToken(null);
    forgetOthers(client);
    client.setQueryData(SESSION_KEY, null);
  }, [client]);

  const adoptSession = useCallback(
    (user: SessionUser, csrfToken: string) => {
      setCsrfToken(csrfToken);
      forgetOthers(client);
      client.setQueryData(SESSION_KEY, user);
    },
    [client],
  );

  const value = useMemo<SessionValue>(
    () => ({ user: query.data ?? null, loading: query.isPending, signIn, signUp, signOut, adoptSession }),
    [query.data, query.isPending, signIn, signUp, signOut, adoptSession],
  );
  if (query.error) throw query.error instanceof ApiError ? query.error : new Error(String(query.error));
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * A session can end elsewhere (signed out from another device, a password change or reset): the first 401 any query
 * or mutation meets re-reads the session, which then answers signed out, and the sign-in guard takes the person to /login.
 */
function useSessionEndWatch(client: ReturnType<typeof useQueryClient>) {
  useEffect(() => {
    const ended = (err: unknown) => err instanceof ApiError && err.status === 401;
    const recheck = () => void client.invalidateQueries({ queryKey: SESSION_KEY });
    const offQueries = client.getQueryCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'error' && e.query.queryKey[0] !== SESSION_KEY[0] && ended(e.action.error)) recheck();
    });
    const offMutations = client.getMutationCache().subscribe((e) => {
      if (e.type === 'updated' && e.action.type === 'error' && ended(e.action.error)) recheck();
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [client]);
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in user; only for screens behind the sign-in guard. */
export function useUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a session');
  return user;
}
