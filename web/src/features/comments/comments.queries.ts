import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { CommentAnchor } from '../pages/collab/comment-anchors';

export interface PageComment {
  id: string;
  pageId: string;
  workspaceId: string;
  parentId: string | null;
  text: string;
  author: { id: string; name: string; avatarUrl: string | null } | null;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: string | null;
  deleted: boolean;
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The text a thread is on (its first comment); null for a comment on the whole page. */
  anchor: CommentAnchor | null;
  reactions: { emoji: string; userIds: string[] }[];
}

/** A first comment and every reply under it (replies to replies included), oldest first. */
export interface Thread {
  root: PageComment;
  replies: PageComment[];
}

export const commentKeys = {
  page: (workspaceId: string, pageId: string) => ['comments', workspaceId, pageId] as const,
};

export interface CommentsScope {
  workspaceId: string;
  pageId: string;
}

export function useComments({ workspaceId, pageId }: CommentsScope) {
  return useQuery({
    queryKey: commentKeys.page(workspaceId, pageId),
    queryFn: async () => (await data(api.GET('/api/v1/comments', { params: { query: { workspaceId, pageId } } }))) as PageComment[],
  });
}

/**
 * Groups the flat list (oldest first, linked by parentId) into threads. A reply to a reply joins its root's thread,
 * so a thread reads as one conversation; a comment whose parent is not listed starts its own thread.
 */
export function threadsOf(comments: PageComment[]): Thread[] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (c: PageComment): PageComment => {
    let current = c;
    const seen = new Set<string>();
    while (current.parentId && byId.has(current.parentId) && !seen.has(current.id)) {
      seen.add(current.id);
      current = byId.get(current.parentId) as PageComment;
    }
    return current;
  };
  const threads = new Map<string, Thread>();
  for (const c of comments) {
    const root = rootOf(c);
    const thread = threads.get(root.id) ?? { root, replies: [] };
    if (c !== root) thread.replies.push(c);
    threads.set(root.id, thread);
  }
  return [...threads.values()];
}

/** Every change to a page's comments refreshes its list. */
function useCommentMutation<TVars>(scope: CommentsScope, run: (vars: TVars) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: commentKeys.page(scope.workspaceId, scope.pageId) }),
  });
}

export function useAddComment(scope: CommentsScope) {
  return useCommentMutation(scope, (vars: { text: string; parentId?: string; anchor?: CommentAnchor }) =>
    data(
      api.POST('/api/v1/comments', {
        body: { workspaceId: scope.workspaceId, pageId: scope.pageId, text: vars.text, parentId: vars.parentId, anchor: vars.anchor },
      }),
    ),
  );
}

export function useEditComment(scope: CommentsScope) {
  return useCommentMutation(scope, (vars: { id: string; text: string }) =>
    data(api.PUT('/api/v1/comments/{commentId}', { params: { path: { commentId: vars.id } }, body: { workspaceId: scope.workspaceId, text: vars.text } })),
  );
}

export function useDeleteComment(scope: CommentsScope) {
  return useCommentMutation(scope, (id: string) =>
    data(api.DELETE('/api/v1/comments/{commentId}', { params: { path: { commentId: id }, query: { workspaceId: scope.workspaceId } } })),
  );
}

export function useResolveComment(scope: CommentsScope) {
  return useCommentMutation(scope, (vars: { id: string; resolved: boolean }) =>
    data(
      api.POST('/api/v1/comments/{commentId}/resolve', {
        params: { path: { commentId: vars.id } },
        body: { workspaceId: scope.workspaceId, resolved: vars.resolved },
      }),
    ),
  );
}

/** Adds or takes back the person's emoji reaction. */
export function useReactToComment(scope: CommentsScope) {
  return useCommentMutation(scope, (vars: { id: string; emoji: string; reacted: boolean }) =>
    data(
      api.POST('/api/v1/comments/{commentId}/reactions', {
        params: { path: { commentId: vars.id } },
        body: { workspaceId: scope.workspaceId, emoji: vars.emoji, reacted: vars.reacted },
      }),
    ),
  );
}
