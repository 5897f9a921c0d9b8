import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconMessageReply, IconRotate } from '@tabler/icons-react';
import { useState } from 'react';
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
}: {
  thread: Thread;
  scope: CommentsScope;
  userId: string | undefined;
  isAdmin: boolean;
  canComment: boolean;
}) {
  const [replying, setReplying] = useState(false);
  const reply = useAddComment(scope);
  const resolve = useResolveComment(scope);
  const { root, replies } = thread;
  const who = root.author?.name ?? 'a former member';
  const label = root.deleted ? `Thread by ${who}` : `Thread by ${who}: ${excerpt(root.text)}`;

  return (
    <Paper component="article" aria-label={label} withBorder p="sm" radius="md">
      {root.resolved && (
        <Badge size="xs" color="green" variant="light" mb="xs" leftSection={<IconCheck size={10} />}>
          Resolved
        </Badge>
      )}
      <CommentItem comment={root} scope={scope} mine={root.author?.id === userId} canDelete={root.author?.id === userId || isAdmin} />
      {replies.length > 0 && (
        <Stack gap="sm" mt="sm" pl="md" style={{ borderLeft: '2px solid var(--mantine-color-default-border)' }}>
          {replies.map((c) => (
            <CommentItem key={c.id} comment={c} scope={scope} mine={c.author?.id === userId} canDelete={c.author?.id === userId || isAdmin} />
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
