import { Button, Collapse, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useSession } from '../auth/session';
import { useWorkspace } from '../workspaces/workspace-context';
import { CommentForm } from './CommentForm';
import { CommentThread } from './CommentThread';
import { threadsOf, useAddComment, useComments } from './comments.queries';

export interface CommentsPanelProps {
  workspaceId: string;
  pageId: string;
  /** May the person comment, reply and resolve here (an editor of the page's space)? */
  canComment: boolean;
  /** Text selected in the page to comment on: the new comment starts by quoting it. */
  quote?: string;
}

/**
 * The comments of a page, for a drawer beside it: open threads first, newest last, then the resolved ones folded
 * under "Resolved"; a box for a new comment at the end, where the eye is after reading.
 */
export function CommentsPanel({ workspaceId, pageId, canComment, quote }: CommentsPanelProps) {
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
    <CommentThread key={t.root.id} thread={t} scope={scope} userId={user?.id} isAdmin={isAdmin} canComment={canComment} />
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
        <CommentForm
          key={quote ?? ''}
          label="Comment"
          submitLabel="Add comment"
          initial={quote ? `${quote.replace(/\s+/g, ' ').replace(/^/, '> ')}\n\n` : ''}
          pending={add.isPending}
          error={add.error}
          onSubmit={(text) => add.mutateAsync({ text })}
        />
      ) : (
        <Text size="sm" c="dimmed">
          You can read the comments here but not add to them.
        </Text>
      )}
    </Stack>
  );
}

export default CommentsPanel;
