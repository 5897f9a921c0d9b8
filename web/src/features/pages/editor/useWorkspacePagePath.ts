import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { pagePathById } from '../../search/search.queries';
import { useWorkspace } from '../../workspaces/workspace-context';

/** A page's address in this workspace from its id alone (what a page mention holds). */
export function useWorkspacePagePath(): (pageId: string) => Promise<string> {
  const client = useQueryClient();
  const workspace = useWorkspace();
  return useCallback((pageId: string) => pagePathById(client, workspace, pageId), [client, workspace]);
}
