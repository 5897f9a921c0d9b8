import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, data } from '../../api/client';
import type { DataOf, ItemOf } from '../../api/types';

export type TaskStatus = 'todo' | 'in_progress' | 'done';
export type TaskPriority = 'high' | 'medium' | 'low';
export type TaskBucket = 'now' | 'next' | 'later';

export const STATUSES: { value: TaskStatus; label: string }[] = [
  { value: 'todo', label: 'To do' },
  { value: 'in_progress', label: 'In progress' },
  { value: 'done', label: 'Done' },
];
export const PRIORITIES: { value: TaskPriority; label: string }[] = [
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
];
export const BUCKETS: { value: TaskBucket; label: string }[] = [
  { value: 'now', label: 'Now' },
  { value: 'next', label: 'Next' },
  { value: 'later', label: 'Later' },
];
export const statusLabel = (s: string) => STATUSES.find((x) => x.value === s)?.label ?? s;
export const priorityLabel = (p: string | null) => PRIORITIES.find((x) => x.value === p)?.label ?? 'None';

/** A task as the list returns it, and in detail form (with its assignee and project), from the API's own types. */
export type Task = ItemOf<'/api/v1/tasks'>;
export type TaskDetail = DataOf<'/api/v1/tasks/{taskId}'>;
export interface Project {
  id: string;
  name: string;
  description: string | null;
  spaceId: string | null;
  archived: boolean;
  taskCount: number;
}
export interface Member {
  id: string;
  name: string;
  email: string;
}

/** The filters of the task screens, as they are kept in the URL. */
export interface TaskFilters {
  bucket?: TaskBucket | 'none';
  projectId?: string;
  label?: string;
  assigneeId?: string;
  status?: TaskStatus;
  priority?: TaskPriority;
  dueBefore?: string;
}

/** Fields a person can set on a task (create and update share them). */
export interface TaskInput {
  title?: string;
  description?: string | null;
  status?: TaskStatus;
  priority?: TaskPriority | null;
  bucket?: TaskBucket | null;
  assigneeId?: string | null;
  projectId?: string | null;
  pageId?: string | null;
  dueDate?: string | null;
  labels?: string[];
}

export const taskKeys = {
  all: (ws: string) => ['tasks', ws] as const,
  list: (ws: string, f: TaskFilters) => ['tasks', ws, 'list', f] as const,
  one: (ws: string, id: string) => ['tasks', ws, 'one', id] as const,
  triage: (ws: string) => ['tasks', ws, 'triage'] as const,
  labels: (ws: string) => ['tasks', ws, 'labels'] as const,
  projects: (ws: string) => ['projects', ws] as const,
  members: (ws: string) => ['members', ws] as const,
};

/** At most one API page: the board and the list show the first 100 matches and say when there are more. */
export const TASK_PAGE = 100;

export function useTasks(ws: string, f: TaskFilters) {
  return useQuery({
    queryKey: taskKeys.list(ws, f),
    queryFn: async () => {
      const res = await call(api.GET('/api/v1/tasks', { params: { query: { workspaceId: ws, ...f, sort: 'createdAt', order: 'desc', limit: TASK_PAGE } } }));
      return res as unknown as { data: Task[]; meta: { total: number } };
    },
    placeholderData: keepPreviousData,
  });
}

export function useTask(ws: string, id: string) {
  return useQuery({
    queryKey: taskKeys.one(ws, id),
    queryFn: async () => (await data(api.GET('/api/v1/tasks/{taskId}', { params: { path: { taskId: id }, query: { workspaceId: ws } } }))) as TaskDetail,
  });
}

export function useTriage(ws: string) {
  return useQuery({
    queryKey: taskKeys.triage(ws),
    queryFn: () => data(api.GET('/api/v1/tasks/triage-summary', { params: { query: { workspaceId: ws } } })),
  });
}

export function useLabels(ws: string) {
  return useQuery({
    queryKey: taskKeys.labels(ws),
    queryFn: () => data(api.GET('/api/v1/labels', { params: { query: { workspaceId: ws } } })),
    staleTime: 30_000,
  });
}

export function useProjects(ws: string) {
  return useQuery({
    queryKey: taskKeys.projects(ws),
    queryFn: async () => (await data(api.GET('/api/v1/projects', { params: { query: { workspaceId: ws, limit: 100 } } }))) as Project[],
    staleTime: 30_000,
  });
}

export function useMembers(ws: string) {
  return useQuery({
    queryKey: taskKeys.members(ws),
    queryFn: async () => (await data(api.GET('/api/v1/workspaces/{workspaceId}/members', { params: { path: { workspaceId: ws } } }))) as Member[],
    staleTime: 60_000,
  });
}

/** Everything a task change can alter: lists, counts, labels, project counts, goals' progress. */
function useInvalidateTasks(ws: string) {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: taskKeys.all(ws) }),
      qc.invalidateQueries({ queryKey: taskKeys.projects(ws) }),
      qc.invalidateQueries({ queryKey: ['goals', ws] }),
    ]);
}

export function useCreateTask(ws: string) {
  const invalidate = useInvalidateTasks(ws);
  return useMutation({
    mutationFn: async (input: TaskInput & { title: string }) => (await data(api.POST('/api/v1/tasks', { body: { workspaceId: ws, ...input } }))) as TaskDetail,
    onSuccess: invalidate,
  });
}

export function useUpdateTask(ws: string) {
  const invalidate = useInvalidateTasks(ws);
  return useMutation({
    mutationFn: async ({ id, ...input }: TaskInput & { id: string }) =>
      (await data(api.PUT('/api/v1/tasks/{taskId}', { params: { path: { taskId: id } }, body: { workspaceId: ws, ...input } }))) as TaskDetail,
    onSuccess: invalidate,
  });
}

export function useCompleteTask(ws: string) {
  const invalidate = useInvalidateTasks(ws);
  return useMutation({
    mutationFn: async (id: string) =>
      (await data(api.POST('/api/v1/tasks/{taskId}/complete', { params: { path: { taskId: id } }, body: { workspaceId: ws } }))) as TaskDetail,
    onSuccess: invalidate,
  });
}

export function useDeleteTask(ws: string) {
  const qc = useQueryClient();
  const invalidate = useInvalidateTasks(ws);
  return useMutation({
    mutationFn: (id: string) => data(api.DELETE('/api/v1/tasks/{taskId}', { params: { path: { taskId: id }, query: { workspaceId: ws } } })),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: taskKeys.one(ws, id) });
      return invalidate();
    },
  });
}

export function useCreateProject(ws: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; description?: string | null }) =>
      (await data(api.POST('/api/v1/projects', { body: { workspaceId: ws, ...input } }))) as Project,
    onSuccess: () => qc.invalidateQueries({ queryKey: taskKeys.projects(ws) }),
  });
}

type TaskPage = { data: Task[]; meta: { total: number } };

/**
 * Moves a task to another status column at once, and puts it back (with the API's reason) when the write fails:
 * the board must never show a state the service did not accept.
 */
export function useMoveTask(ws: string, onFailure: (err: unknown, task: Task) => void) {
  const qc = useQueryClient();
  const invalidate = useInvalidateTasks(ws);
  const lists = ['tasks', ws, 'list'];
  return useMutation({
    mutationFn: async ({ task, status }: { task: Task; status: TaskStatus }) =>
      (await data(api.PUT('/api/v1/tasks/{taskId}', { params: { path: { taskId: task.id } }, body: { workspaceId: ws, status } }))) as TaskDetail,
    onMutate: async ({ task, status }) => {
      await qc.cancelQueries({ queryKey: lists });
      const before = qc.getQueriesData<TaskPage>({ queryKey: lists });
      qc.setQueriesData<TaskPage>({ queryKey: lists }, (page) =>
        page ? { ...page, data: page.data.map((t) => (t.id === task.id ? { ...t, status } : t)) } : page,
      );
      return { before };
    },
    onError: (err, { task }, context) => {
      for (const [key, value] of context?.before ?? []) qc.setQueryData(key, value);
      onFailure(err, task);
    },
    onSettled: invalidate,
  });
}
