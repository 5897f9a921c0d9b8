import { Avatar, Tooltip } from '@mantine/core';
import type { Collaborator } from './collab-session';

const MAX_SHOWN = 4;

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

/** The other people on the page now, in their caret colours, names on hover and for screen readers. */
export function PeopleHere({ others }: { others: Collaborator[] }) {
  if (others.length === 0) return null;
  const shown = others.slice(0, MAX_SHOWN);
  const rest = others.slice(MAX_SHOWN);
  return (
    <Tooltip.Group openDelay={200} closeDelay={100}>
      <Avatar.Group spacing="xs" role="group" aria-label={`Also here: ${others.map((o) => o.name).join(', ')}`}>
        {shown.map((person) => (
          <Tooltip key={person.id} label={person.name} withArrow>
            <Avatar size={28} radius="xl" variant="filled" color={person.color} aria-label={person.name}>
              {initialsOf(person.name)}
            </Avatar>
          </Tooltip>
        ))}
        {rest.length > 0 && (
          <Tooltip label={rest.map((o) => o.name).join(', ')} withArrow>
            <Avatar size={28} radius="xl" aria-label={`${rest.length} more`}>
              +{rest.length}
            </Avatar>
          </Tooltip>
        )}
      </Avatar.Group>
    </Tooltip.Group>
  );
}
