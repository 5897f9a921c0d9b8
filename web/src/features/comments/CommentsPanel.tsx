import { Blockquote, Button, Collapse, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useSession } from '../auth/session';
import { useWorkspace } from '../workspaces/workspace-context';
import { CommentForm } from './CommentForm';
import { CommentThread } from './CommentThread';
import type { CommentAnchor } from '../pages/collab/comment-anchors';
import { type Thread, threadsOf, useAddComment, useComments } from './comments.queries';

export interface CommentsPanelProps {
  workspaceId: string;
  pageId: string;
  /** May the person comment, reply and resolve here (an editor of the page's space)? */
  canComment: boolean;
  /** Text selected in the page to start a thread on (its range and quote). */
  anchor?: CommentAnchor;
  /** The thread on `anchor` was made (or the person wrote a page comment instead). */
  onDraftDone?: () => void;
  /** The thread whose text was clicked in the page: shown marked and scrolled to. */
  activeId?: string | null;
  /** A thread's quote was clicked: the page scrolls to its text. */
  onSelectThread?: (thread: Thread) => void;
}

/**
 * The comments of a page, for a drawer beside it: open threads first, newest last, then the resolved ones folded
 * under "Resolved"; a box for a new comment at the end, where the eye is after reading.
 */
export function CommentsPanel({ workspaceId, pageId, canComment, anchor, onDraftDone, activeId, onSelectThread }: CommentsPanelProps) {
  const scope = { workspaceId, pageId };
  const comments = useComments(scope);
  const add = useAddComment(scope);
  const { user } = useSession();
  const workspace = useWorkspace();
  const [showResolved, resolvedToggle] = useDisclosure(false);
  // The API lets a workspace admin delete anyone's comment; space admins too, which the page screen may pass later.
  const isAdmin = workspace.id === workspaceId && workspace.role === 'admin';

  if (comments.isPending) return <Loader aria-label="Loading comments" />;
  if (comments.error) return <ErrorNotice error={comments.error} title="Comments could not be loaded" />;

  const threads = threadsOf(comments.data);
  const open = threads.filter((t) => !t.root.resolved);
  const resolved = threads.filter((t) => t.root.resolved);
  const thread = (t: (typeof threads)[number]) => (
    <CommentThread
      key={t.root.id}
      thread={t}
      scope={scope}
      userId={user?.id}
      isAdmin={isAdmin}
      canComment={canComment}
      active={t.root.id === activeId}
      onSelect={onSelectThread && (() => onSelectThread(t))}
    />
  );

  return (
    <Stack gap="md">
      {open.length === 0 && resolved.length === 0 && <Text c="dimmed">No comments yet.</Text>}
      {open.length === 0 && resolved.length > 0 && <Text c="dimmed">No open threads.</Text>}
      {open.map(thread)}
      {resolved.length > 0 && (
        <Stack gap="xs">
          <Button
            variant="subtle"
            color="gray"
            size="compact-sm"
            w="fit-content"
            leftSection={showResolved ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            aria-expanded={showResolved}
            onClick={resolvedToggle.toggle}
          >
            Resolved ({resolved.length})
          </Button>
          <Collapse expanded={showResolved}>
            <Stack gap="md">{showResolved && resolved.map(thread)}</Stack>
          </Collapse>
        </Stack>
      )}
      {canComment ? (
        <Stack gap={6}>
          {anchor && (
            <Blockquote p="xs" color="yellow" fz="sm" aria-label="Commenting on">
              {anchor.quote.length > 200 ? `${anchor.quote.slice(0, 200)}…` : anchor.quote}
            </Blockquote>
          )}
          <CommentForm
            key={anchor?.start ?? ''}
            label={anchor ? 'Comment on the selected text' : 'Comment'}
            submitLabel="Add comment"
            autoFocus={Boolean(anchor)}
            pending={add.isPending}
            error={add.error}
            onSubmit={async (text) => {
              await add.mutateAsync({ text, anchor });
              onDraftDone?.();
            }}
          />
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          You can read the comments here but not add to them.
        </Text>
      )}
    </Stack>
  );
}

export default CommentsPanel;
