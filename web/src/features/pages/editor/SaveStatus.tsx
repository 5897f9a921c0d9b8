import { Button, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { messageOf } from '../../../api/errors';
import type { Autosave } from './useAutosave';

/** Where the person's edits are, in words, announced politely to screen readers. */
export function SaveStatus({ autosave }: { autosave: Autosave }) {
  const { state, error } = autosave;
  return (
    <Group gap={6} wrap="nowrap" role="status" aria-live="polite">
      {state === 'saved' && (
        <>
          <IconCheck size={14} aria-hidden />
          <Text size="sm" c="dimmed">
            Saved
          </Text>
        </>
      )}
      {state === 'saving' && (
        <>
          <Loader size={12} aria-hidden />
          <Text size="sm" c="dimmed">
            Saving…
          </Text>
        </>
      )}
      {state === 'retrying' && (
        <>
          <IconAlertTriangle size={14} aria-hidden color="var(--mantine-color-orange-text)" />
          <Text size="sm" c="orange">
            Not saved — retrying
          </Text>
        </>
      )}
      {state === 'conflict' && (
        <Text size="sm" c="orange">
          Not saved — changed elsewhere
        </Text>
      )}
      {state === 'failed' && (
        <>
          <Text size="sm" c="red" lineClamp={2}>
            Not saved: {messageOf(error)}
          </Text>
          <Button size="compact-xs" variant="light" color="red" onClick={() => void autosave.saveNow()}>
            Try again
          </Button>
        </>
      )}
    </Group>
  );
}
