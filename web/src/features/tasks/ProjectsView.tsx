import { Anchor, Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormButtons } from '../../ui/FormStack';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { useCreateProject, useProjects } from './tasks.queries';

/** The workspace's projects with their task counts; each opens the task list filtered to it. */
export function ProjectsView() {
  const workspace = useWorkspace();
  const projects = useProjects(workspace.id);
  const [creating, create] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          Projects
        </Title>
        {canEditIn(workspace.role) && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={create.open}>
            New project
          </Button>
        )}
      </Group>
      {projects.isPending && <ScreenLoader />}
      <ErrorNotice error={projects.error} title="Projects could not be loaded" />
      {projects.data?.length === 0 && <Text c="dimmed">No projects yet. A project groups tasks that serve one outcome.</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {projects.data?.map((p) => (
          <Card key={p.id} withBorder radius="md" component="article" aria-label={p.name}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {p.name}
              </Text>
              {p.archived && <Badge color="gray">Archived</Badge>}
            </Group>
            {p.description && (
              <Text size="sm" c="dimmed" mt={4}>
                {p.description}
              </Text>
            )}
            <Anchor component={Link} to={`${paths.tasks(workspace.hostname)}/list?project=${p.id}`} size="sm" mt="sm">
              {p.taskCount === 1 ? '1 task' : `${p.taskCount} tasks`}
            </Anchor>
          </Card>
        ))}
      </SimpleGrid>
      <Modal opened={creating} onClose={create.close} title="New project">
        <ProjectForm ws={workspace.id} onDone={create.close} />
      </Modal>
    </Stack>
  );
}

function ProjectForm({ ws, onDone }: { ws: string; onDone: () => void }) {
  const create = useCreateProject(ws);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setNameError('A project needs a name.');
    setNameError(null);
    create.mutate(
      { name: name.trim(), description: description.trim() || null },
      {
        onSuccess: (p) => {
          notifications.show({ color: 'green', message: `Project “${p.name}” created.` });
          onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError ?? fields.name} data-autofocus />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fields.description}
        />
        {Object.keys(fields).length === 0 && <ErrorNotice error={create.error} title="The project was not created" />}
        <FormButtons submit="Create project" onCancel={onDone} loading={create.isPending} />
      </Stack>
    </form>
  );
}
