import { Alert, Button, Group, Text } from '@mantine/core';
import { IconGitMerge } from '@tabler/icons-react';
import { useState } from 'react';

/**
 * Shown on a 412: someone changed the page since this editor read it. Nothing is lost either way: "Keep my version"
 * overwrites theirs (which stays in History); "Use theirs" first saves this version as a history entry, then restores
 * theirs on top of it.
 */
export function ConflictAlert({ updatedAt, onKeepMine, onUseTheirs }: { updatedAt: string | null; onKeepMine: () => Promise<void>; onUseTheirs: () => Promise<void> }) {
  const [busy, setBusy] = useState<'mine' | 'theirs' | null>(null);
  const act = (which: 'mine' | 'theirs', f: () => Promise<void>) => async () => {
    setBusy(which);
    try {
      await f();
    } finally {
      setBusy(null);
    }
  };
  return (
    <Alert color="orange" variant="light" icon={<IconGitMerge size={18} />} title="This page was changed elsewhere" role="alert">
      <Text size="sm" mb="xs">
        Someone saved this page{updatedAt ? ` at ${new Date(updatedAt).toLocaleTimeString()}` : ''} while you were editing. Your text is still here and
        has not been saved. Whichever you choose, the other version stays in History.
      </Text>
      <Group gap="xs">
        <Button size="xs" onClick={act('mine', onKeepMine)} loading={busy === 'mine'} disabled={busy !== null}>
          Keep my version
        </Button>
        <Button size="xs" variant="default" onClick={act('theirs', onUseTheirs)} loading={busy === 'theirs'} disabled={busy !== null}>
          Use theirs
        </Button>
      </Group>
    </Alert>
  );
}
