import { Badge, Button, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconMessageReply, IconRotate } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../../api/errors';
import { CommentForm } from './CommentForm';
import { CommentItem } from './CommentItem';
import { type CommentsScope, type Thread, useAddComment, useResolveComment } from './comments.queries';

function excerpt(text: string) {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

/**
 * A thread: its first comment, the replies, and what an editor may do with it (reply, resolve, reopen). Resolving
 * the first comment resolves the thread.
 */
export function CommentThread({
  thread,
  scope,
  userId,
  isAdmin,
  canComment,
  active = false,
  onSelect,
}: {
  thread: Thread;
  scope: CommentsScope;
  userId: string | undefined;
  isAdmin: boolean;
  canComment: boolean;
  /** Its text was clicked in the page: marked, and scrolled into view. */
  active?: boolean;
  /** Its quote was clicked: the page shows its text. */
  onSelect?: () => void;
}) {
  const paper = useRef<HTMLElement>(null);
  useEffect(() => {
    if (active) paper.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [active]);
  const [replying, setReplying] = useState(false);
  const reply = useAddComment(scope);
  const resolve = useResolveComment(scope);
  const { root, replies } = thread;
  const who = root.author?.name ?? 'a former member';
  const label = root.deleted ? `Thread by ${who}` : `Thread by ${who}: ${excerpt(root.text)}`;

  return (
    <Paper
      ref={paper}
      component="article"
      aria-label={label}
      aria-current={active || undefined}
      withBorder
      p="sm"
      radius="md"
      style={active ? { borderColor: 'var(--mantine-color-yellow-filled)', boxShadow: '0 0 0 1px var(--mantine-color-yellow-filled)' } : undefined}
    >
      {root.anchor && (
        <UnstyledButton onClick={onSelect} mb="xs" display="block" w="100%" aria-label={`Show the text: ${excerpt(root.anchor.quote)}`}>
          <Text size="xs" c="dimmed" lineClamp={2} style={{ borderLeft: '3px solid var(--mantine-color-yellow-filled)', paddingLeft: 8 }}>
            {root.anchor.quote}
          </Text>
        </UnstyledButton>
      )}
      {root.resolved && (
        <Badge size="xs" color="green" variant="light" mb="xs" leftSection={<IconCheck size={10} />}>
          Resolved
        </Badge>
      )}
      <CommentItem comment={root} scope={scope} userId={userId} canDelete={root.author?.id === userId || isAdmin} canReact={canComment} />
      {replies.length > 0 && (
        <Stack gap="sm" mt="sm" pl="md" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          {replies.map((c) => (
            <CommentItem key={c.id} comment={c} scope={scope} userId={userId} canDelete={c.author?.id === userId || isAdmin} canReact={canComment} />
          ))}
        </Stack>
      )}
      {canComment && replying && !root.deleted && (
        <Stack mt="sm">
          <CommentForm
            label="Reply"
            submitLabel="Send reply"
            pending={reply.isPending}
            error={reply.error}
            autoFocus
            onSubmit={async (text) => {
              await reply.mutateAsync({ text, parentId: root.id });
              setReplying(false);
            }}
            onCancel={() => {
              reply.reset();
              setReplying(false);
            }}
          />
        </Stack>
      )}
      {canComment && !replying && (
        <Group gap="xs" mt="sm">
          {!root.deleted && !root.resolved && (
            <Button size="compact-xs" variant="subtle" leftSection={<IconMessageReply size={14} />} onClick={() => setReplying(true)}>
              Reply
            </Button>
          )}
          {!root.deleted && (
            <Button
              size="compact-xs"
              variant="subtle"
              color={root.resolved ? 'gray' : 'green'}
              leftSection={root.resolved ? <IconRotate size={14} /> : <IconCheck size={14} />}
              loading={resolve.isPending}
              onClick={() => resolve.mutate({ id: root.id, resolved: !root.resolved })}
            >
              {root.resolved ? 'Reopen' : 'Resolve'}
            </Button>
          )}
        </Group>
      )}
      {resolve.error ? (
        <Text size="xs" c="red" role="alert" mt={4}>
          {root.resolved ? 'Could not reopen' : 'Could not resolve'}: {messageOf(resolve.error)}
        </Text>
      ) : null}
    </Paper>
  );
}
