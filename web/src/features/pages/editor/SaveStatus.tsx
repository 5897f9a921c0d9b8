import { Button, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCloudOff, IconEye } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { messageOf } from '../../../api/errors';
import { refusalMessage } from '../collab/collab-session';
import type { CollabState } from '../collab/useCollabSession';
import type { TitleSave } from './useTitleSave';

function Line({ icon, children, color = 'dimmed' }: { icon: ReactNode; children: ReactNode; color?: string }) {
  return (
    <>
      {icon}
      <Text size="sm" c={color}>
        {children}
      </Text>
    </>
  );
}

/**
 * Where the person's edits are, in words, announced politely to screen readers: the co-edited content (on the
 * server, on its way, or kept on this device while offline) and the title (saved on its own).
 */
export function SaveStatus({ collab, title, readOnly }: { collab: CollabState; title: TitleSave; readOnly: boolean }) {
  let line: ReactNode;
  if (collab.refused)
    line = (
      <Line icon={<IconAlertTriangle size={14} aria-hidden color="var(--mantine-color-red-text)" />} color="red">
        {refusalMessage(collab.refused)}
      </Line>
    );
  else if (readOnly) line = <Line icon={<IconEye size={14} aria-hidden />}>Read-only</Line>;
  else if (title.state === 'failed')
    line = (
      <>
        <Text size="sm" c="red" lineClamp={2}>
          Title not saved: {messageOf(title.error)}
        </Text>
        <Button size="compact-xs" variant="light" color="red" onClick={() => void title.saveNow()}>
          Try again
        </Button>
      </>
    );
  else if (collab.status === 'offline')
    line = (
      <Line icon={<IconCloudOff size={14} aria-hidden color="var(--mantine-color-orange-text)" />} color="orange">
        Offline — changes kept on this device
      </Line>
    );
  else if (title.state === 'retrying')
    line = (
      <Line icon={<IconAlertTriangle size={14} aria-hidden color="var(--mantine-color-orange-text)" />} color="orange">
        Title not saved — retrying
      </Line>
    );
  else if (collab.status === 'connecting') line = <Line icon={<Loader size={12} aria-hidden />}>Connecting…</Line>;
  else if (collab.status === 'online' || title.state === 'saving') line = <Line icon={<Loader size={12} aria-hidden />}>Saving…</Line>;
  else line = <Line icon={<IconCheck size={14} aria-hidden />}>Saved</Line>;
  return (
    <Group gap={6} wrap="nowrap" role="status" aria-live="polite">
      {line}
    </Group>
  );
}
