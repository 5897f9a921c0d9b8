import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconEye, IconEyeCheck } from '@tabler/icons-react';
import { messageOf } from '../../api/errors';
import { useWatch, type WatchTarget } from './notifications.queries';

const WORDS = {
  page: { on: 'You watch this page: changes to it notify you. Click to stop.', off: 'Watch this page: get notified when it changes' },
  space: { on: 'You watch this space: changes to its pages notify you. Click to stop.', off: 'Watch this space: get notified when its pages change' },
};

/**
 * "Watch" / "Watching" for a page or a space. `compact` is an icon with a tooltip (the page header is already full);
 * otherwise a labelled button.
 */
export function WatchButton({ target, compact = false, size = 'xs' }: { target: WatchTarget; compact?: boolean; size?: 'xs' | 'sm' }) {
  const { watching, isPending, toggle } = useWatch(target);
  const on = watching === true;
  const tip = WORDS[target.type][on ? 'on' : 'off'];
  const flip = () =>
    toggle.mutate(!on, { onError: (err) => toasts.show({ color: 'red', title: on ? 'Could not stop watching' : 'Could not watch', message: messageOf(err) }) });
  const icon = on ? <IconEyeCheck size={compact ? 16 : 14} aria-hidden /> : <IconEye size={compact ? 16 : 14} aria-hidden />;
  return (
    <Tooltip label={tip} multiline w={240}>
      {compact ? (
        <ActionIcon
          variant={on ? 'light' : 'default'}
          size={size === 'xs' ? 30 : 36}
          aria-label={on ? 'Watching' : 'Watch'}
          aria-pressed={on}
          disabled={isPending}
          loading={toggle.isPending}
          onClick={flip}
        >
          {icon}
        </ActionIcon>
      ) : (
        <Button
          variant={on ? 'light' : 'default'}
          size={size}
          leftSection={icon}
          aria-pressed={on}
          disabled={isPending}
          loading={toggle.isPending}
          onClick={flip}
        >
          {on ? 'Watching' : 'Watch'}
        </Button>
      )}
    </Tooltip>
  );
}
