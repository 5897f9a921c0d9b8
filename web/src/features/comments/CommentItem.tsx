import { ActionIcon, Avatar, Box, Group, Menu, Text } from '@mantine/core';
import { IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { CommentForm } from './CommentForm';
import { CommentReactions } from './CommentReactions';
import { type CommentsScope, type PageComment, useDeleteComment, useEditComment } from './comments.queries';
import { fullTime, timeAgo } from './relative-time';

function initials(name: string) {
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * One comment: who, when, what. Its author may edit it; its author (or an admin, `canDelete`) may delete it. A
 * deleted comment keeps its place while replies to it remain, without its text. Reactions under it.
 */
export function CommentItem({
  comment,
  scope,
  userId,
  canDelete,
  canReact,
}: {
  comment: PageComment;
  scope: CommentsScope;
  userId: string | undefined;
  canDelete: boolean;
  canReact: boolean;
}) {
  const mine = comment.author?.id === userId;
  const [editing, setEditing] = useState(false);
  const edit = useEditComment(scope);
  const remove = useDeleteComment(scope);
  const name = comment.author?.name ?? 'Former member';
  const edited = !comment.deleted && new Date(comment.updatedAt).getTime() - new Date(comment.createdAt).getTime() > 1000;
  const showMenu = !comment.deleted && !editing && (mine || canDelete);

  return (
    <Box>
      <Group gap="xs" wrap="nowrap" align="center">
        <Avatar size={24} radius="xl" src={comment.author?.avatarUrl ?? undefined} alt="" color="blue">
          {initials(name)}
        </Avatar>
        <Text size="sm" fw={600} truncate>
          {name}
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={comment.createdAt} title={fullTime(comment.createdAt)} style={{ whiteSpace: 'nowrap' }}>
          {timeAgo(comment.createdAt)}
          {edited ? ' (edited)' : ''}
        </Text>
        {showMenu && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" size="sm" ml="auto" aria-label={`Actions for the comment by ${name}`}>
                <IconDots size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {mine && (
                <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setEditing(true)}>
                  Edit
                </Menu.Item>
              )}
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => remove.mutate(comment.id)}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {editing ? (
        <Box mt="xs">
          <CommentForm
            label="Edit comment"
            submitLabel="Save"
            initial={comment.text}
            pending={edit.isPending}
            error={edit.error}
            autoFocus
            onSubmit={async (text) => {
              await edit.mutateAsync({ id: comment.id, text });
              setEditing(false);
            }}
            onCancel={() => {
              edit.reset();
              setEditing(false);
            }}
          />
        </Box>
      ) : comment.deleted ? (
        <Text size="sm" c="dimmed" fs="italic" mt={4}>
          This comment was deleted.
        </Text>
      ) : (
        <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.text}
        </Text>
      )}
      {!editing && <CommentReactions comment={comment} scope={scope} userId={userId} canReact={canReact} />}
      {remove.error ? (
        <Text size="xs" c="red" role="alert" mt={4}>
          Could not delete: {messageOf(remove.error)}
        </Text>
      ) : null}
    </Box>
  );
}
