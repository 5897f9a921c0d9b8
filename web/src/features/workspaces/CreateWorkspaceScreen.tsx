import { Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ReceivedInvitations } from '../invitations/ReceivedInvitations';
import { paths } from './workspace-context';
import { type WorkspaceSummary, workspaceKeys } from './workspaces.queries';

/** A hostname from a name: lower case, letters, digits and single dashes. */
function hostnameFrom(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}

export function CreateWorkspaceScreen() {
  const client = useQueryClient();
  const navigate = useNavigate();
  // Where to go once it exists (the consent screen of an app waiting to connect), else the new workspace's home.
  const next = useSearchParams()[0].get('next');
  const [name, setName] = useState('');
  const [hostname, setHostname] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: async () => (await data(api.POST('/api/v1/workspaces', { body: { name, hostname: hostname || hostnameFrom(name) } }))) as WorkspaceSummary,
    onSuccess: async (ws) => {
      // Refetch even while no screen watches the list: the workspace scope must find the new workspace in it.
      await client.refetchQueries({ queryKey: workspaceKeys.all });
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : paths.workspace(ws.hostname));
    },
  });
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Center mih="80vh" p="md">
      <Paper component="form" onSubmit={submit} withBorder p="xl" radius="md" w={440} maw="100%">
        <Stack>
          <Title order={1} size="h2">
            Create a workspace
          </Title>
          <Text c="dimmed" size="sm">
            A workspace holds your team's spaces, pages, tasks and goals.
          </Text>
          <ReceivedInvitations />
          <TextInput
            label="Workspace name"
            value={name}
            required
            onChange={(e) => {
              setName(e.currentTarget.value);
              if (!touched) setHostname(hostnameFrom(e.currentTarget.value));
            }}
            error={fields.name}
          />
          <TextInput
            label="Address"
            description="Used in links: letters, digits and dashes"
            value={hostname}
            required
            onChange={(e) => {
              setTouched(true);
              setHostname(e.currentTarget.value);
            }}
            error={fields.hostname}
          />
          <ErrorNotice error={Object.keys(fields).length ? null : create.error} title="Could not create the workspace" />
          <Button type="submit" loading={create.isPending}>
            Create workspace
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
