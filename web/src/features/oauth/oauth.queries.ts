import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { DataOf, ItemOf } from '../../api/types';

/** What the consent screen shows: the app asking, the scopes it asks for, the person's workspaces. */
export type ConsentDetails = DataOf<'/oauth/consent/{uid}/details'>;
export type OAuthScope = ConsentDetails['scopes'][number];
/** One app the caller gave access to (Settings › Connected apps). */
export type OAuthConnection = ItemOf<'/api/v1/oauth/connections'>;
export type Registration = OAuthConnection['client']['registration'];

/** Every scope, in order, in plain words: what a person grants by ticking it. */
export const SCOPES: { value: OAuthScope; label: string; description: string }[] = [
  { value: 'read', label: 'Read', description: 'Read pages, tasks and everything you can see in the workspace' },
  { value: 'write', label: 'Write', description: 'Create and change content as you' },
  { value: 'admin', label: 'Administer', description: 'Also manage members, spaces and settings, only where you are an admin' },
];

export const scopeLabel = (scope: OAuthScope) => SCOPES.find((s) => s.value === scope)?.label ?? scope;

export const oauthKeys = {
  consent: (uid: string) => ['oauth', 'consent', uid] as const,
  connections: ['settings', 'oauth-connections'] as const,
};

/** The consent screen's read; the request's `_interaction` cookie (path `/oauth/consent/<uid>`) comes with it. */
export function useConsentDetails(uid: string) {
  return useQuery({
    queryKey: oauthKeys.consent(uid),
    queryFn: () => data(api.GET('/oauth/consent/{uid}/details', { params: { path: { uid } } })),
    // Read afresh on every visit (back from creating a workspace, the list has changed), never kept.
    gcTime: 0,
    retry: false,
  });
}

export type ConsentAnswer = { approve: true; workspaceId: string; scopes: OAuthScope[] } | { approve: false };

/** Connects or declines; the answer names where the browser goes next (back to the app, through the service). */
export function useConsentDecision(uid: string) {
  return useMutation({
    mutationFn: (body: ConsentAnswer) => data(api.POST('/oauth/consent/{uid}/decision', { params: { path: { uid } }, body })),
    onSuccess: ({ redirectTo }) => window.location.assign(redirectTo),
  });
}

/** The authorization request ended, expired or belongs to another browser: only the app can start a new one. */
export const requestEnded = (err: unknown) =>
  err instanceof ApiError && err.status === 403 && (err.details as { reason?: unknown } | undefined)?.reason === 'interaction_not_found';

export function useConnections() {
  return useQuery({ queryKey: oauthKeys.connections, queryFn: () => data(api.GET('/api/v1/oauth/connections')) });
}

export const disconnect = (id: string) => data(api.DELETE('/api/v1/oauth/connections/{id}', { params: { path: { id } } }));
