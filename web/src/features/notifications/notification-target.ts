import type { QueryClient } from '@tanstack/react-query';
import { pagePathById, taskPath } from '../search/search.queries';
import type { SpaceSummary } from '../spaces/spaces.queries';
import { spaceKeys } from '../spaces/spaces.queries';
import { paths } from '../workspaces/workspace-context';
import type { AppNotification } from './notifications.queries';

/**
 * Where clicking a notification leads: the task, the page (a comment's page too), the space, or the webhook settings.
 * Null when there is nowhere to go (the row is only marked read).
 */
export async function targetPathOf(client: QueryClient, workspace: { id: string; hostname: string }, n: AppNotification): Promise<string | null> {
  if (n.kind === 'webhook_disabled') return paths.settings(workspace.hostname, 'webhooks');
  if (n.subject.type === 'task') return taskPath(workspace.hostname, n.subject.id);
  if (n.pageId) return pagePathById(client, workspace, n.pageId);
  if (n.spaceId) {
    const spaces = client.getQueryData<SpaceSummary[]>(spaceKeys.all(workspace.id));
    const space = spaces?.find((s) => s.id === n.spaceId);
    return space ? paths.space(workspace.hostname, space.slug) : null;
  }
  return null;
}
