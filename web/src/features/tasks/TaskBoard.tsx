import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  rectIntersection,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { ActionIcon, Anchor, Badge, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconGripVertical } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '../../api/errors';
import { STATUSES, statusLabel, type Task, type TaskStatus, useMoveTask } from './tasks.queries';
import { TaskMeta } from './TaskMeta';

/** The column under the middle of the dragged card; columns may sit side by side or stacked (narrow screens). */
const columnUnderCard: CollisionDetection = (args) => {
  const rect = args.collisionRect;
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const hit = args.droppableContainers.filter((c) => {
    const r = args.droppableRects.get(c.id);
    return r && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
  });
  return hit.length ? hit.map((c) => ({ id: c.id })) : rectIntersection(args);
};

/** Arrow keys move a lifted card a whole column at a time (right/down: next status, left/up: previous). */
const columnSteps: KeyboardCoordinateGetter = (event, { currentCoordinates, context }) => {
  const step = event.code === 'ArrowRight' || event.code === 'ArrowDown' ? 1 : event.code === 'ArrowLeft' || event.code === 'ArrowUp' ? -1 : 0;
  const card = context.collisionRect;
  if (!step || !card) return undefined;
  event.preventDefault();
  const order = STATUSES.map((s) => s.value as string);
  const current = (context.over?.id as string | undefined) ?? (context.active?.data.current as { status?: string } | undefined)?.status;
  const target = order[Math.min(order.length - 1, Math.max(0, order.indexOf(current ?? order[0]) + step))];
  const column = context.droppableRects.get(target);
  if (!column) return currentCoordinates;
  return { x: column.left + column.width / 2 - card.width / 2, y: column.top + 48 };
};

const names = (id: unknown) => statusLabel(String(id));
const announcements = (titleOf: (id: unknown) => string): Announcements => ({
  onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}. Use the arrow keys to move it between columns, Space to drop, Escape to cancel.`,
  // Over its own column (right after lifting) says nothing new: the pick-up message stays.
  onDragOver: ({ active, over }) =>
    over?.id === active.data.current?.status
      ? undefined
      : over
        ? `${titleOf(active.id)} is over ${names(over.id)}.`
        : `${titleOf(active.id)} is over no column.`,
  onDragEnd: ({ active, over }) => (over ? `${titleOf(active.id)} dropped in ${names(over.id)}.` : `${titleOf(active.id)} was dropped outside the columns.`),
  onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
});

/** Tasks in columns by status; dragging a card to another column sets its status (mouse, touch or keyboard). */
export function TaskBoard({ ws, tasks, taskHref }: { ws: string; tasks: Task[]; taskHref: (id: string) => string }) {
  const [dragged, setDragged] = useState<Task | null>(null);
  const move = useMoveTask(ws, (err, task) => notifications.show({ color: 'red', title: `“${task.title}” could not be moved`, message: messageOf(err) }));
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: columnSteps }));
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const titleOf = (id: unknown) => `“${byId.get(String(id))?.title ?? 'task'}”`;

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const task = byId.get(String(active.id));
    const status = over?.id as TaskStatus | undefined;
    if (task && status && status !== task.status) move.mutate({ task, status });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={columnUnderCard}
      accessibility={{ announcements: announcements(titleOf) }}
      onDragStart={({ active }) => setDragged(byId.get(String(active.id)) ?? null)}
      onDragCancel={() => setDragged(null)}
      onDragEnd={onDragEnd}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {STATUSES.map((s) => (
          <Column key={s.value} status={s.value} label={s.label} tasks={tasks.filter((t) => t.status === s.value)} taskHref={taskHref} />
        ))}
      </SimpleGrid>
      <DragOverlay>{dragged ? <CardBody task={dragged} taskHref={taskHref} lifted /> : null}</DragOverlay>
    </DndContext>
  );
}

function Column({ status, label, tasks, taskHref }: { status: TaskStatus; label: string; tasks: Task[]; taskHref: (id: string) => string }) {
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const headingId = `column-${status}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      withBorder
      p="sm"
      radius="md"
      bg={isOver ? 'var(--mantine-primary-color-light)' : 'var(--mantine-color-default-hover)'}
      mih={160}
    >
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {label}
        </Title>
        <Badge variant="light" aria-label={`${tasks.length} tasks`}>
          {tasks.length}
        </Badge>
      </Group>
      <Stack gap="xs">
        {tasks.map((t) => (
          <DraggableCard key={t.id} task={t} taskHref={taskHref} />
        ))}
        {tasks.length === 0 && (
          <Text c="dimmed" size="sm">
            No tasks
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function DraggableCard({ task, taskHref }: { task: Task; taskHref: (id: string) => string }) {
  const { setNodeRef, attributes, listeners, isDragging } = useDraggable({ id: task.id, data: { status: task.status } });
  return (
    <div ref={setNodeRef} style={{ opacity: isDragging ? 0.4 : 1 }}>
      <CardBody task={task} taskHref={taskHref} handle={{ ...attributes, ...listeners }} />
    </div>
  );
}

function CardBody({ task, taskHref, handle, lifted }: { task: Task; taskHref: (id: string) => string; handle?: object; lifted?: boolean }) {
  return (
    <Card withBorder padding="xs" radius="sm" shadow={lifted ? 'md' : undefined}>
      <Group gap="xs" wrap="nowrap" align="start">
        <ActionIcon variant="subtle" color="gray" aria-label={`Move ${task.title}`} style={{ cursor: 'grab', touchAction: 'none' }} {...handle}>
          <IconGripVertical size={16} aria-hidden />
        </ActionIcon>
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Anchor component={Link} to={taskHref(task.id)} fw={500} style={{ overflowWrap: 'anywhere' }}>
            {task.title}
          </Anchor>
          <TaskMeta task={task} />
        </Stack>
      </Group>
    </Card>
  );
}
