import { Alert, Button, Group, Select, Switch, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormStack } from '../../ui/FormStack';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useWorkspace } from '../workspaces/workspace-context';
import { workspaceKeys } from '../workspaces/workspaces.queries';
import { fieldErrorsOf, formLevelError } from './form-errors';
import { ROLES, type Role, settingsKeys, useWorkspaceDetail, type WorkspaceDetail } from './settings.queries';

interface Draft {
  name: string;
  description: string;
  logoUrl: string;
  defaultRole: Role;
  allowPublicPages: boolean;
}

const draftOf = (w: WorkspaceDetail): Draft => ({
  name: w.name,
  description: w.description ?? '',
  logoUrl: w.logoUrl ?? '',
  defaultRole: w.settings.defaultRole,
  allowPublicPages: w.settings.allowPublicPages,
});

const FIELDS = ['name', 'description', 'logoUrl', 'settings.defaultRole', 'settings.allowPublicPages'] as const;

/** Name, description, logo and workspace-wide settings; editable by admins, read-only for everyone else. */
export function GeneralSection() {
  const workspace = useWorkspace();
  const detail = useWorkspaceDetail(workspace.id);
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const isAdmin = workspace.role === 'admin';

  useEffect(() => {
    if (detail.data) setDraft(draftOf(detail.data));
  }, [detail.data]);

  const save = useMutation({
    mutationFn: async (d: Draft) =>
      data(
        api.PUT('/api/v1/workspaces/{workspaceId}', {
          params: { path: { workspaceId: workspace.id } },
          body: {
            name: d.name,
            // Cleared fields are removed, not stored as empty strings.
            description: d.description.trim() ? d.description : null,
            logoUrl: d.logoUrl.trim() ? d.logoUrl : null,
            settings: { defaultRole: d.defaultRole, allowPublicPages: d.allowPublicPages },
          },
        }),
      ),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: 'Workspace settings saved' });
      await Promise.all([
        client.invalidateQueries({ queryKey: settingsKeys.workspace(workspace.id) }),
        client.invalidateQueries({ queryKey: workspaceKeys.all, exact: true }),
      ]);
    },
  });

  if (detail.isPending) return <ScreenLoader />;
  if (detail.error) return <ErrorNotice error={detail.error} />;
  if (!draft) return null;

  const errors = fieldErrorsOf(save.error);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  return (
    <FormStack maw={560} onSubmit={() => save.mutate(draft)}>
      <Title order={2}>General</Title>
      {!isAdmin && (
        <Alert color="blue" variant="light">
          Only workspace admins can change these settings.
        </Alert>
      )}
      <TextInput
        label="Workspace name"
        value={draft.name}
        onChange={(e) => set('name', e.currentTarget.value)}
        readOnly={!isAdmin}
        error={errors.name}
        required
      />
      <TextInput label="Hostname" value={detail.data.hostname} readOnly description="The workspace's address; it cannot be changed." />
      <Textarea
        label="Description"
        value={draft.description}
        onChange={(e) => set('description', e.currentTarget.value)}
        readOnly={!isAdmin}
        error={errors.description}
        autosize
        minRows={2}
      />
      <TextInput
        label="Logo URL"
        placeholder="https://example.com/logo.png"
        value={draft.logoUrl}
        onChange={(e) => set('logoUrl', e.currentTarget.value)}
        readOnly={!isAdmin}
        error={errors.logoUrl}
      />
      <Select
        label="Default role for new members"
        data={ROLES}
        value={draft.defaultRole}
        onChange={(v) => v && set('defaultRole', v as Role)}
        readOnly={!isAdmin}
        allowDeselect={false}
        error={errors['settings.defaultRole']}
      />
      <Switch
        label="Allow public pages"
        description="Editors can publish a page through a public link, from the page's Share dialog. Turning this off stops every link at once."
        checked={draft.allowPublicPages}
        onChange={(e) => set('allowPublicPages', e.currentTarget.checked)}
        disabled={!isAdmin}
        error={errors['settings.allowPublicPages']}
      />
      <ErrorNotice error={formLevelError(save.error, FIELDS)} title="Could not save" />
      {isAdmin && (
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      )}
    </FormStack>
  );
}
