import { ActionIcon, Anchor, Badge, Button, Card, Group, Modal, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconLinkOff, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { statusLabel, type Task } from '../tasks/tasks.queries';
import { paths } from '../workspaces/workspace-context';
import { GoalForm } from './GoalForm';
import { type Goal, useDeleteGoal, useLinkTask, useUnlinkTask, useUpdateGoal } from './goals.queries';

const STATUS_COLOR = { todo: 'gray', in_progress: 'blue', done: 'green' } as const;
const percent = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)}%`;

/** One goal: its progress from the tasks linked to it, those tasks, and the ways to change it. */
export function GoalCard({ ws, hostname, goal, tasks, editable }: { ws: string; hostname: string; goal: Goal; tasks: Task[]; editable: boolean }) {
  const [editing, edit] = useDisclosure(false);
  const [deleting, del] = useDisclosure(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const update = useUpdateGoal(ws);
  const remove = useDeleteGoal(ws);
  const link = useLinkTask(ws);
  const unlink = useUnlinkTask(ws);
  const linked = new Set(goal.tasks?.map((t) => t.id));
  const linkable = tasks.filter((t) => !linked.has(t.id)).map((t) => ({ value: t.id, label: t.title }));
  const fail = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: messageOf(err) });

  return (
    <Card withBorder radius="md" component="article" aria-labelledby={`goal-${goal.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="start">
          <Title order={3} size="h4" id={`goal-${goal.id}`} style={{ overflowWrap: 'anywhere' }}>
            {goal.title}
          </Title>
          {editable && (
            <Group gap={4} wrap="nowrap">
              <ActionIcon variant="subtle" aria-label={`Edit ${goal.title}`} onClick={edit.open}>
                <IconPencil size={16} aria-hidden />
              </ActionIcon>
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${goal.title}`} onClick={del.open}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          )}
        </Group>
        {goal.description && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {goal.description}
          </Text>
        )}
        {goal.keywords.length > 0 && (
          <Group gap={4}>
            {goal.keywords.map((k) => (
              <Badge key={k} size="xs" variant="outline">
                {k}
              </Badge>
            ))}
          </Group>
        )}
        <Progress value={goal.progress} aria-label={`Progress of ${goal.title}`} size="lg" radius="xl" />
        <Text size="sm">
          {percent(goal.progress)} · {goal.completedTaskCount} of {goal.taskCount} {goal.taskCount === 1 ? 'task' : 'tasks'} done
        </Text>
        {goal.tasks && goal.tasks.length > 0 && (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={`Tasks of ${goal.title}`}>
            {goal.tasks.map((t) => (
              <Group key={t.id} component="li" gap="xs" wrap="nowrap" justify="space-between">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Badge size="xs" color={STATUS_COLOR[t.status]} variant="light">
                    {statusLabel(t.status)}
                  </Badge>
                  <Anchor component={Link} to={`${paths.tasks(hostname)}/${t.id}`} size="sm" truncate>
                    {t.title}
                  </Anchor>
                </Group>
                {editable && (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-label={`Unlink ${t.title}`}
                    onClick={() => unlink.mutate({ goalId: goal.id, taskId: t.id }, { onError: fail('The task was not unlinked') })}
                  >
                    <IconLinkOff size={14} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            ))}
          </Stack>
        )}
        {editable && linkable.length > 0 && (
          <Group gap="xs" align="end" wrap="nowrap">
            <Select
              label="Link a task"
              placeholder="Choose a task"
              searchable
              data={linkable}
              value={taskId}
              onChange={setTaskId}
              style={{ flex: 1 }}
              nothingFoundMessage="No task matches"
            />
            <Button
              variant="light"
              disabled={!taskId}
              loading={link.isPending}
              onClick={() => taskId && link.mutate({ goalId: goal.id, taskId }, { onSuccess: () => setTaskId(null), onError: fail('The task was not linked') })}
            >
              Link
            </Button>
          </Group>
        )}
      </Stack>
      <Modal opened={editing} onClose={edit.close} title="Edit goal">
        <GoalForm
          ws={ws}
          goal={goal}
          submitLabel="Save goal"
          pending={update.isPending}
          error={update.error}
          onCancel={edit.close}
          onSubmit={(input) => update.mutate({ id: goal.id, ...input }, { onSuccess: edit.close })}
        />
      </Modal>
      <Modal opened={deleting} onClose={del.close} title="Delete this goal?">
        <Stack>
          <Text>“{goal.title}” will be deleted. Its tasks are kept.</Text>
          <ErrorNotice error={remove.error} title="The goal was not deleted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={del.close}>
              Keep it
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(goal.id, { onSuccess: del.close })}>
              Delete goal
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
