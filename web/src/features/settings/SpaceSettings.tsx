import { Anchor, Button, Group, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { spaceKeys } from '../spaces/spaces.queries';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { ConfirmModal } from './ConfirmModal';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { SpaceAccess } from './SpaceAccess';
import { type SpaceDetail, spaceSettingsKeys, useSpaceDetail } from './spaces-settings.queries';

interface Draft {
  name: string;
  description: string;
  icon: string;
  visibility: 'public' | 'private';
}

const VISIBILITIES = [
  { value: 'public', label: 'Public: every workspace member can read it' },
  { value: 'private', label: 'Private: only its members and workspace admins' },
];
const FIELDS = ['name', 'description', 'icon', 'visibility'] as const;

/** One space: its details and visibility, who has a role in it, and deleting it (space admins; the API decides). */
export function SpaceSettings() {
  const { spaceId = '' } = useParams();
  const workspace = useWorkspace();
  const space = useSpaceDetail(workspace.id, spaceId);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState(false);
  const listPath = paths.settings(workspace.hostname, 'spaces');

  useEffect(() => {
    if (space.data) setDraft({ name: space.data.name, description: space.data.description ?? '', icon: space.data.icon ?? '', visibility: space.data.visibility });
  }, [space.data]);

  const save = useMutation({
    mutationFn: async (d: Draft) =>
      (await data(
        api.PUT('/api/v1/spaces/{spaceId}', {
          params: { path: { spaceId } },
          body: { workspaceId: workspace.id, name: d.name, description: d.description.trim() ? d.description : null, icon: d.icon.trim() ? d.icon : null, visibility: d.visibility },
        }),
      )) as SpaceDetail,
    onSuccess: async () => {
      notifications.show({ color: 'green', message: 'Space saved' });
      await Promise.all([
        client.invalidateQueries({ queryKey: spaceSettingsKeys.one(workspace.id, spaceId) }),
        client.invalidateQueries({ queryKey: spaceKeys.all(workspace.id) }),
      ]);
    },
  });

  const back = (
    <Anchor component={Link} to={listPath} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden /> All spaces
      </Group>
    </Anchor>
  );
  if (space.isPending) return <ScreenLoader />;
  if (space.error)
    return (
      <Stack>
        {back}
        <ErrorNotice error={space.error} />
      </Stack>
    );
  if (!draft) return null;
  const errors = fieldErrorsOf(save.error);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  return (
    <Stack>
      {back}
      <Title order={2}>Space: {space.data.name}</Title>
      <FormStack maw={560} onSubmit={() => save.mutate(draft)}>
        <TextInput label="Space name" value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} required />
        <Textarea label="Description" value={draft.description} onChange={(e) => set('description', e.currentTarget.value)} error={errors.description} autosize minRows={2} />
        <TextInput label="Icon" description="An emoji or an icon name" value={draft.icon} onChange={(e) => set('icon', e.currentTarget.value)} error={errors.icon} w={200} />
        <Select label="Visibility" data={VISIBILITIES} value={draft.visibility} onChange={(v) => v && set('visibility', v as Draft['visibility'])} allowDeselect={false} error={errors.visibility} />
        <ErrorNotice error={formLevelError(save.error, FIELDS)} title="Could not save the space" />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save space
          </Button>
        </Group>
      </FormStack>
      <SpaceAccess spaceId={spaceId} />
      <Title order={3}>Danger zone</Title>
      <Group>
        <Button color="red" variant="light" onClick={() => setDeleting(true)}>
          Delete space
        </Button>
      </Group>
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete space"
        confirmLabel="Delete this space forever"
        typeToConfirm={space.data.name}
        onConfirm={async () => {
          await data(api.DELETE('/api/v1/spaces/{spaceId}', { params: { path: { spaceId }, query: { workspaceId: workspace.id } } }));
          notifications.show({ color: 'green', message: `Space “${space.data.name}” deleted` });
          await client.invalidateQueries({ queryKey: spaceKeys.all(workspace.id) });
          navigate(listPath);
        }}
      >
        This deletes “{space.data.name}” with all its {space.data.pageCount} pages, their comments and attachments. It cannot be undone: there is no trash for a deleted space.
      </ConfirmModal>
    </Stack>
  );
}
