import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client';
import type { DataOf } from '../../../api/types';
import { pageKeys } from '../pages.queries';

/** Who can open a page and why, its own restriction and the ones it inherits (`GET /api/v1/pages/{pageId}/access`). */
export type PageAccess = DataOf<'/api/v1/pages/{pageId}/access'>;
export type AccessPerson = PageAccess['people'][number];
export type Grant = NonNullable<PageAccess['restriction']>['grants'][number];
export type GrantRole = Grant['role'];

/** A grant being edited in the dialog: a user or a group of the workspace, with viewer or editor rights. */
export interface DraftGrant {
  type: 'user' | 'group';
  id: string;
  name: string;
  email?: string;
  role: GrantRole;
}

/** Someone or some group that may be granted access, from the workspace's members and groups. */
export interface Grantee {
  type: 'user' | 'group';
  id: string;
  name: string;
  email?: string;
}

export const accessKeys = {
  page: (pageId: string) => ['pages', 'access', pageId] as const,
  grantees: (workspaceId: string, query: string) => ['pages', 'grantees', workspaceId, query] as const,
};

export function usePageAccess(pageId: string, enabled: boolean) {
  return useQuery({
    queryKey: accessKeys.page(pageId),
    queryFn: () => data(api.GET('/api/v1/pages/{pageId}/access', { params: { path: { pageId } } })),
    enabled,
  });
}

/** Members (by name or email) and groups (by name) of the workspace matching `query`: at most 8 of each. */
export function useGrantees(workspaceId: string, query: string, enabled: boolean) {
  const q = query.trim().toLowerCase();
  return useQuery({
    queryKey: accessKeys.grantees(workspaceId, q),
    queryFn: async (): Promise<Grantee[]> => {
      const [people, groups] = await Promise.all([
        data(api.GET('/api/v1/users', { params: { query: { workspaceId, query: q || undefined, limit: 8 } } })),
        data(api.GET('/api/v1/groups', { params: { query: { workspaceId } } })),
      ]);
      return [
        ...(people as { id: string; name: string; email: string }[]).map((u) => ({ type: 'user' as const, id: u.id, name: u.name, email: u.email })),
        ...(groups as { id: string; name: string }[])
          .filter((g) => !q || g.name.toLowerCase().includes(q))
          .slice(0, 8)
          .map((g) => ({ type: 'group' as const, id: g.id, name: g.name })),
      ];
    },
    enabled,
    staleTime: 30_000,
  });
}

/** Saves the page's restriction (PUT) or removes it (DELETE); both answer the page's access, kept as the query's data. */
export function useRestriction(pageId: string) {
  const queryClient = useQueryClient();
  const settle = (access: PageAccess) => {
    queryClient.setQueryData(accessKeys.page(pageId), access);
    // Who sees the page changed: the trees read again (a workspace admin may have left themselves out).
    void queryClient.invalidateQueries({ queryKey: pageKeys.all, predicate: (q) => q.queryKey[1] === 'tree' || q.queryKey[1] === 'roots' });
  };
  const save = useMutation({
    mutationFn: (grants: DraftGrant[]) =>
      data(
        api.PUT('/api/v1/pages/{pageId}/restriction', {
          params: { path: { pageId } },
          body: { grants: grants.map((g) => (g.type === 'user' ? { userId: g.id, role: g.role } : { groupId: g.id, role: g.role })) },
        }),
      ),
    onSuccess: settle,
  });
  const remove = useMutation({
    mutationFn: () => data(api.DELETE('/api/v1/pages/{pageId}/restriction', { params: { path: { pageId } } })),
    onSuccess: settle,
  });
  return { save, remove };
}
