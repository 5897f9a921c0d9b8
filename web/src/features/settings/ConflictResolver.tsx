import { Alert, Anchor, Badge, Box, Button, Code, Group, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { type ConflictPreview, syncKeys, useConflictPreview } from './sync.queries';

type Resolution = 'keep_local' | 'keep_service' | 'manual_merge';

/** A side of the conflict as text; a deleted side or a binary file says so instead. */
function SideView({ title, side, binary }: { title: string; side: ConflictPreview['local']; binary: boolean }) {
  let body: string;
  if (!side || side.contentHash === null) body = '(deleted on this side)';
  else if (binary) body = `(binary file, ${side.contentType})`;
  else body = side.content ?? side.lines.join('\n');
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <Box component="pre" aria-label={title} p="xs" m={0} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 360, overflow: 'auto', border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-default-hover)', fontSize: 13 }}>
        {body}
      </Box>
    </Stack>
  );
}

/** Both sides of a conflict, the proposed merge, and the three ways to settle it (resolve body: `resolution`, `resolvedContent`). */
export function ConflictResolver() {
  const { sourceId = '', conflictId = '' } = useParams();
  const workspace = useWorkspace();
  const preview = useConflictPreview(workspace.id, conflictId);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [merged, setMerged] = useState('');
  const back = paths.settings(workspace.hostname, `sync/sources/${sourceId}`);

  useEffect(() => {
    const p = preview.data;
    if (p) setMerged(p.merged ?? p.service?.content ?? p.local?.content ?? '');
  }, [preview.data]);

  const resolve = useMutation({
    mutationFn: async (resolution: Resolution) =>
      call(
        api.POST('/api/local-sync/sources/conflicts/resolve', {
          body: { workspaceId: workspace.id, conflictId, resolution, ...(resolution === 'manual_merge' ? { resolvedContent: merged } : {}) },
        }),
      ),
    onSuccess: async (_, resolution) => {
      const how = { keep_local: 'kept the folder’s version', keep_service: 'kept the service’s version', manual_merge: 'saved the merged text' }[resolution];
      notifications.show({ color: 'green', message: `Conflict resolved: ${how}` });
      await client.invalidateQueries({ queryKey: syncKeys.sources(workspace.id) });
      navigate(back);
    },
  });

  const header = (
    <Anchor component={Link} to={back} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden /> All conflicts of the source
      </Group>
    </Anchor>
  );
  if (preview.isPending) return <ScreenLoader />;
  if (preview.error)
    return (
      <Stack>
        {header}
        <ErrorNotice error={preview.error} />
      </Stack>
    );
  const p = preview.data;
  const open = p.status === 'open';
  return (
    <Stack>
      {header}
      <Title order={2}>
        Conflict in <Code fz="inherit">{p.relativePath}</Code>
      </Title>
      <Group gap="xs">
        <Badge color={open ? 'orange' : 'green'}>{open ? 'Open' : 'Resolved'}</Badge>
        {!p.binary && <Text size="sm">{p.clashes === 0 ? 'The changes do not overlap: they can be merged.' : `${p.clashes} place(s) changed on both sides.`}</Text>}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SideView title="Folder version (local)" side={p.local} binary={p.binary} />
        <SideView title="Service version" side={p.service} binary={p.binary} />
      </SimpleGrid>
      {!p.binary && open && (
        <Textarea
          label="Merged text"
          description={p.mergeable ? 'The proposed merge of both sides; edit it before saving if needed.' : 'Both sides changed the same lines: edit this text into the version to keep.'}
          value={merged}
          onChange={(e) => setMerged(e.currentTarget.value)}
          autosize
          minRows={4}
          maxRows={16}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
      )}
      <ErrorNotice error={resolve.error} title="Could not resolve the conflict" />
      {open ? (
        <Group>
          <Button variant="default" onClick={() => resolve.mutate('keep_local')} loading={resolve.isPending && resolve.variables === 'keep_local'}>
            Keep folder version
          </Button>
          <Button variant="default" onClick={() => resolve.mutate('keep_service')} loading={resolve.isPending && resolve.variables === 'keep_service'}>
            Keep service version
          </Button>
          {!p.binary && (
            <Button onClick={() => resolve.mutate('manual_merge')} loading={resolve.isPending && resolve.variables === 'manual_merge'}>
              Save merged text
            </Button>
          )}
        </Group>
      ) : (
        <Alert color="green">This conflict is already resolved.</Alert>
      )}
    </Stack>
  );
}
