import { Center, Loader } from '@mantine/core';
import { createContext, type ReactNode, useContext } from 'react';
import { Navigate, useParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useWorkspaces, type WorkspaceSummary } from './workspaces.queries';

const WorkspaceContext = createContext<WorkspaceSummary | null>(null);

/** Resolves `/w/:ws` (the workspace's hostname) to the caller's workspace, for every screen below it. */
export function WorkspaceScope({ children }: { children: ReactNode }) {
  const { ws } = useParams();
  const workspaces = useWorkspaces();
  if (workspaces.isPending)
    return (
      <Center h="60vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (workspaces.error) return <ErrorNotice error={workspaces.error} />;
  const workspace = workspaces.data.find((w) => w.hostname.toLowerCase() === ws?.toLowerCase());
  if (!workspace) return <Navigate to="/" replace />;
  return <WorkspaceContext.Provider value={workspace}>{children}</WorkspaceContext.Provider>;
}

/** The workspace of the current URL. */
export function useWorkspace(): WorkspaceSummary {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace outside WorkspaceScope');
  return value;
}

/** Can the caller change content in this workspace (editor or admin)? Spaces may narrow it further. */
export function canEditIn(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'editor';
}

/** Path helpers: every URL names its workspace by hostname, its space by slug, and a page by slug and id. */
export const paths = {
  workspace: (ws: string) => `/w/${encodeURIComponent(ws)}`,
  space: (ws: string, space: string) => `/w/${encodeURIComponent(ws)}/s/${encodeURIComponent(space)}`,
  page: (ws: string, space: string, page: { id: string; slug?: string | null }) =>
    `/w/${encodeURIComponent(ws)}/s/${encodeURIComponent(space)}/p/${page.slug ? `${encodeURIComponent(page.slug)}-` : ''}${page.id}`,
  trash: (ws: string, space: string) => `/w/${encodeURIComponent(ws)}/s/${encodeURIComponent(space)}/trash`,
  search: (ws: string, q?: string) => `/w/${encodeURIComponent(ws)}/search${q ? `?q=${encodeURIComponent(q)}` : ''}`,
  tasks: (ws: string) => `/w/${encodeURIComponent(ws)}/tasks`,
  goals: (ws: string) => `/w/${encodeURIComponent(ws)}/goals`,
  research: (ws: string) => `/w/${encodeURIComponent(ws)}/research`,
  settings: (ws: string, section = '') => `/w/${encodeURIComponent(ws)}/settings${section ? `/${section}` : ''}`,
};

const ID_TAIL = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The page id at the end of a `:pageRef` URL segment (`<slug>-<uuid>` or a bare id). */
export function pageIdOf(ref: string | undefined): string | null {
  if (!ref) return null;
  return ID_TAIL.exec(ref)?.[1] ?? ref;
}
