import { Button, Group, Modal, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { IndexRedirect } from '../../ui/IndexRedirect';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { ProjectsView } from './ProjectsView';
import { TaskBoard } from './TaskBoard';
import { TaskDetailView } from './TaskDetailView';
import { TaskFilterBar } from './TaskFilterBar';
import { TaskForm } from './TaskForm';
import { TaskList } from './TaskList';
import { useTaskFilters, withoutStatus } from './task-filters';
import { TASK_PAGE, useCreateTask, useMembers, useProjects, useTasks } from './tasks.queries';

type View = 'board' | 'list' | 'projects';

/** `/w/:ws/tasks/*`: the board, the list and the projects as tabs (the view is in the path), and one task's detail. */
export default function TasksScreen() {
  const { search } = useLocation();
  return (
    <Routes>
      <Route index element={<IndexRedirect to={`board${search}`} />} />
      <Route path="board" element={<TasksLayout view="board" />} />
      <Route path="list" element={<TasksLayout view="list" />} />
      <Route path="projects" element={<TasksLayout view="projects" />} />
      <Route path=":taskId" element={<DetailRoute />} />
    </Routes>
  );
}

function DetailRoute() {
  const { hostname } = useWorkspace();
  return <TaskDetailView back={`${paths.tasks(hostname)}/board`} />;
}

function TasksLayout({ view }: { view: View }) {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [creating, create] = useDisclosure(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Tasks</Title>
        {canEditIn(workspace.role) && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={create.open}>
            New task
          </Button>
        )}
      </Group>
      <Tabs value={view} onChange={(v) => v && navigate(`${paths.tasks(workspace.hostname)}/${v}${v === 'projects' ? '' : search}`)}>
        <Tabs.List>
          <Tabs.Tab value="board">Board</Tabs.Tab>
          <Tabs.Tab value="list">List</Tabs.Tab>
          <Tabs.Tab value="projects">Projects</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {view === 'projects' ? <ProjectsView /> : <TaskViews view={view} />}
      <Modal opened={creating} onClose={create.close} title="New task" size="lg">
        <NewTaskForm onDone={create.close} />
      </Modal>
    </Stack>
  );
}

function TaskViews({ view }: { view: 'board' | 'list' }) {
  const workspace = useWorkspace();
  const ws = workspace.id;
  const [filters] = useTaskFilters();
  const tasks = useTasks(ws, view === 'board' ? withoutStatus(filters) : filters);
  const members = useMembers(ws);
  const projects = useProjects(ws);
  const taskHref = (id: string) => `${paths.tasks(workspace.hostname)}/${id}`;
  const page = tasks.data;
  return (
    <Stack>
      <TaskFilterBar ws={ws} showStatus={view === 'list'} />
      <ErrorNotice error={tasks.error} title="Tasks could not be loaded" />
      {tasks.isPending && <ScreenLoader />}
      {page && view === 'board' && <TaskBoard ws={ws} tasks={page.data} taskHref={taskHref} />}
      {page && view === 'list' && <TaskList tasks={page.data} members={members.data ?? []} projects={projects.data ?? []} taskHref={taskHref} />}
      {page && page.meta.total > TASK_PAGE && (
        <Text size="sm" c="dimmed">
          Showing the newest {TASK_PAGE} of {page.meta.total} tasks. Narrow the filters to see the others.
        </Text>
      )}
    </Stack>
  );
}

/** A new task starts in the project and bucket the view is filtered to, so it shows up where it was made. */
function NewTaskForm({ onDone }: { onDone: () => void }) {
  const workspace = useWorkspace();
  const [filters] = useTaskFilters();
  const create = useCreateTask(workspace.id);
  const bucket = filters.bucket && filters.bucket !== 'none' ? filters.bucket : undefined;
  return (
    <TaskForm
      ws={workspace.id}
      defaults={{ projectId: filters.projectId ?? '', assigneeId: filters.assigneeId ?? '', labels: filters.label ? [filters.label] : [] }}
      submitLabel="Create task"
      pending={create.isPending}
      error={create.error}
      onCancel={onDone}
      onSubmit={(input) =>
        create.mutate(
          { ...input, ...(bucket ? { bucket } : {}) },
          {
            onSuccess: (t) => {
              notifications.show({ color: 'green', message: `Task “${t.title}” created.` });
              onDone();
            },
          },
        )
      }
    />
  );
}
