import { Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { useTasks } from '../tasks/tasks.queries';
import { canEditIn, useWorkspace } from '../workspaces/workspace-context';
import { GoalCard } from './GoalCard';
import { GoalForm } from './GoalForm';
import { HORIZONS, useCreateGoal, useGoals } from './goals.queries';

const NO_FILTERS = {};

/** `/w/:ws/goals`: goals grouped by horizon, each with its progress and linked tasks. */
export default function GoalsScreen() {
  const workspace = useWorkspace();
  const ws = workspace.id;
  const goals = useGoals(ws);
  const tasks = useTasks(ws, NO_FILTERS);
  const create = useCreateGoal(ws);
  const [creating, creator] = useDisclosure(false);
  const editable = canEditIn(workspace.role);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Goals</Title>
        {editable && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={creator.open}>
            New goal
          </Button>
        )}
      </Group>
      {goals.isPending && <ScreenLoader />}
      <ErrorNotice error={goals.error} title="Goals could not be loaded" />
      {goals.data?.goals.length === 0 && <Text c="dimmed">No goals yet. A goal gathers the tasks that move it forward and shows how far they have got.</Text>}
      {goals.data &&
        goals.data.goals.length > 0 &&
        HORIZONS.map((h) => {
          const group = goals.data.goals.filter((g) => g.horizon === h.value);
          return (
            <Stack key={h.value} component="section" aria-labelledby={`horizon-${h.value}`} gap="sm">
              <Title order={2} size="h3" id={`horizon-${h.value}`}>
                {h.label}{' '}
                <Text span c="dimmed" size="sm" fw={400}>
                  ({h.hint})
                </Text>
              </Title>
              {group.length === 0 ? (
                <Text c="dimmed" size="sm">
                  No {h.label.toLowerCase()} goals.
                </Text>
              ) : (
                <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
                  {group.map((g) => (
                    <GoalCard key={g.id} ws={ws} hostname={workspace.hostname} goal={g} tasks={tasks.data?.data ?? []} editable={editable} />
                  ))}
                </SimpleGrid>
              )}
            </Stack>
          );
        })}
      <Modal
        opened={creating}
        onClose={() => {
          creator.close();
          create.reset();
        }}
        title="New goal"
      >
        <GoalForm
          ws={ws}
          submitLabel="Create goal"
          pending={create.isPending}
          error={create.error}
          onCancel={creator.close}
          onSubmit={(input) =>
            create.mutate(input, {
              onSuccess: () => {
                notifications.show({ color: 'green', message: `Goal “${input.title}” created.` });
                creator.close();
              },
            })
          }
        />
      </Modal>
    </Stack>
  );
}
