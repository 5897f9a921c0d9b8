import { ActionIcon, Button, Group, Popover, SimpleGrid, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMoodPlus } from '@tabler/icons-react';
import { messageOf } from '../../api/errors';
import { type CommentsScope, type PageComment, useReactToComment } from './comments.queries';

/** The reactions offered at a click (any other emoji goes through the API). */
const QUICK = [
  ['👍', 'thumbs up'],
  ['❤️', 'heart'],
  ['🎉', 'party'],
  ['😄', 'smile'],
  ['👀', 'eyes'],
  ['🚀', 'rocket'],
  ['✅', 'check'],
  ['🙏', 'thanks'],
] as const;

/**
 * A comment's emoji reactions: each emoji with how many gave it (pressed when the person did; a click gives or takes
 * back theirs), and, for those who may comment, a button that offers the quick set.
 */
export function CommentReactions({ comment, scope, userId, canReact }: { comment: PageComment; scope: CommentsScope; userId?: string; canReact: boolean }) {
  const react = useReactToComment(scope);
  const [picking, picker] = useDisclosure(false);
  const mine = (userIds: string[]) => userId !== undefined && userIds.includes(userId);
  const toggle = (emoji: string) => {
    const given = comment.reactions.find((r) => r.emoji === emoji);
    react.mutate({ id: comment.id, emoji, reacted: !mine(given?.userIds ?? []) });
  };
  if (comment.deleted || (comment.reactions.length === 0 && !canReact)) return null;
  return (
    <Group gap={4} mt={6}>
      {comment.reactions.map((r) => (
        <Button
          key={r.emoji}
          size="compact-xs"
          radius="xl"
          variant={mine(r.userIds) ? 'light' : 'default'}
          aria-pressed={mine(r.userIds)}
          aria-label={`${r.emoji} ${r.userIds.length}`}
          disabled={!canReact}
          onClick={() => toggle(r.emoji)}
        >
          {r.emoji} {r.userIds.length}
        </Button>
      ))}
      {canReact && (
        <Popover opened={picking} onChange={picker.set} position="bottom-start" shadow="md" withinPortal trapFocus returnFocus>
          <Popover.Target>
            <Tooltip label="Add reaction">
              <ActionIcon variant="subtle" color="gray" size="sm" radius="xl" aria-label="Add reaction" onClick={picker.toggle}>
                <IconMoodPlus size={14} />
              </ActionIcon>
            </Tooltip>
          </Popover.Target>
          <Popover.Dropdown p={4}>
            <SimpleGrid cols={4} spacing={2}>
              {QUICK.map(([emoji, name]) => (
                <UnstyledButton
                  key={emoji}
                  aria-label={`React with ${name}`}
                  fz="lg"
                  px={6}
                  py={2}
                  style={{ borderRadius: 6 }}
                  className="kb-reaction-choice"
                  onClick={() => {
                    picker.close();
                    toggle(emoji);
                  }}
                >
                  {emoji}
                </UnstyledButton>
              ))}
            </SimpleGrid>
          </Popover.Dropdown>
        </Popover>
      )}
      {react.error ? (
        <Text size="xs" c="red" role="alert">
          Could not react: {messageOf(react.error)}
        </Text>
      ) : null}
    </Group>
  );
}
