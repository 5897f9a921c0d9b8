import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCheck, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useSpaces } from '../spaces/spaces.queries';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { TaskForm } from './TaskForm';
import { statusLabel, useCompleteTask, useDeleteTask, useTask, useUpdateTask } from './tasks.queries';

const STATUS_COLOR = { todo: 'gray', in_progress: 'blue', done: 'green' } as const;

/** One task: every field editable, complete and delete, the space it belongs to and the page it is about. */
export function TaskDetailView({ back }: { back: string }) {
  const { taskId = '' } = useParams();
  const workspace = useWorkspace();
  const ws = workspace.id;
  const navigate = useNavigate();
  const task = useTask(ws, taskId);
  const spaces = useSpaces(ws);
  const update = useUpdateTask(ws);
  const complete = useCompleteTask(ws);
  const remove = useDeleteTask(ws);
  const [confirming, confirm] = useDisclosure(false);
  const editable = canEditIn(workspace.role);

  if (task.isPending) return <ScreenLoader />;
  if (task.error)
    return (
      <Stack>
        <Anchor component={Link} to={back}>
          Back to tasks
        </Anchor>
        <ErrorNotice error={task.error} title="This task cannot be shown" />
      </Stack>
    );
  const t = task.data;
  const space = t.spaceId ? spaces.data?.find((s) => s.id === t.spaceId) : undefined;
  const pageSpace = t.page ? spaces.data?.find((s) => s.id === t.page?.spaceId) : undefined;

  const onComplete = () =>
    complete.mutate(t.id, {
      onSuccess: () => notifications.show({ color: 'green', message: `“${t.title}” is done.` }),
      onError: (err) => notifications.show({ color: 'red', title: 'The task was not completed', message: messageOf(err) }),
    });
  const onDelete = () =>
    remove.mutate(t.id, {
      onSuccess: () => {
        notifications.show({ message: `“${t.title}” was deleted.` });
        navigate(back);
      },
    });

  return (
    <Stack maw={820}>
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          Back to tasks
        </Group>
      </Anchor>
      <Group justify="space-between" align="start">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {t.title}
          </Title>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[t.status]} aria-label={`Status: ${statusLabel(t.status)}`}>
              {statusLabel(t.status)}
            </Badge>
            {t.completedAt && (
              <Text size="sm" c="dimmed">
                Completed {new Date(t.completedAt).toLocaleString()}
              </Text>
            )}
          </Group>
        </Stack>
        {editable && (
          <Group gap="xs">
            {t.status !== 'done' && (
              <Button leftSection={<IconCheck size={16} aria-hidden />} color="green" onClick={onComplete} loading={complete.isPending}>
                Complete
              </Button>
            )}
            <Button variant="light" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={confirm.open}>
              Delete
            </Button>
          </Group>
        )}
      </Group>
      {t.spaceId && (
        <Text size="sm">
          Space:{' '}
          {space ? (
            <Anchor component={Link} to={paths.space(workspace.hostname, space.slug)}>
              {space.name}
            </Anchor>
          ) : (
            'a space you cannot open'
          )}
        </Text>
      )}
      {t.pageId && (
        <Text size="sm">
          Page:{' '}
          {t.page && pageSpace ? (
            <Anchor component={Link} to={paths.page(workspace.hostname, pageSpace.slug, { id: t.page.id })}>
              {t.page.title || 'Untitled'}
            </Anchor>
          ) : (
            'a page you cannot open (restricted, or in the trash)'
          )}
        </Text>
      )}
      <Paper withBorder p="md" radius="md">
        {editable ? (
          <TaskForm
            key={t.updatedAt}
            ws={ws}
            task={t}
            withState
            submitLabel="Save changes"
            pending={update.isPending}
            error={update.error}
            onSubmit={(input) => update.mutate({ id: t.id, ...input }, { onSuccess: () => notifications.show({ color: 'green', message: 'Task saved.' }) })}
          />
        ) : (
          <Text style={{ whiteSpace: 'pre-wrap' }}>{t.description || 'No description.'}</Text>
        )}
      </Paper>
      <Text size="xs" c="dimmed">
        Created {new Date(t.createdAt).toLocaleString()} · updated {new Date(t.updatedAt).toLocaleString()}
      </Text>
      <Modal opened={confirming} onClose={confirm.close} title="Delete this task?">
        <Stack>
          <Text>“{t.title}” will be deleted for everyone. This cannot be undone.</Text>
          <ErrorNotice error={remove.error} title="The task was not deleted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={confirm.close}>
              Keep it
            </Button>
            <Button color="red" onClick={onDelete} loading={remove.isPending}>
              Delete task
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
