import { Badge, Group, Text } from '@mantine/core';
import { priorityLabel, type Task } from './tasks.queries';

const PRIORITY_COLOR = { high: 'red', medium: 'yellow', low: 'gray' } as const;

/** The small facts under a task's title: priority, due date, bucket, labels. */
export function TaskMeta({ task }: { task: Task }) {
  const overdue = task.dueDate && task.status !== 'done' && task.dueDate < new Date().toISOString().slice(0, 10);
  return (
    <Group gap={6} wrap="wrap">
      {task.priority && (
        <Badge size="xs" variant="light" color={PRIORITY_COLOR[task.priority]}>
          {priorityLabel(task.priority)}
        </Badge>
      )}
      {task.dueDate && (
        <Text size="xs" c={overdue ? 'red' : 'dimmed'}>
          Due {task.dueDate}
          {overdue ? ' (overdue)' : ''}
        </Text>
      )}
      {task.bucket && (
        <Badge size="xs" variant="outline">
          {task.bucket}
        </Badge>
      )}
      {task.labels.map((l) => (
        <Badge key={l} size="xs" variant="dot">
          {l}
        </Badge>
      ))}
    </Group>
  );
}
