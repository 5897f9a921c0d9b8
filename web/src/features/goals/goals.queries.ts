import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';

export type Horizon = 'short' | 'mid' | 'long';
export const HORIZONS: { value: Horizon; label: string; hint: string }[] = [
  { value: 'short', label: 'Short term', hint: 'weeks' },
  { value: 'mid', label: 'Mid term', hint: 'months or a quarter' },
  { value: 'long', label: 'Long term', hint: 'a year or more' },
];

export interface GoalTask {
  id: string;
  title: string;
  status: 'todo' | 'in_progress' | 'done';
  priority: 'high' | 'medium' | 'low' | null;
}
export interface Goal {
  id: string;
  spaceId: string | null;
  title: string;
  description: string | null;
  horizon: Horizon;
  keywords: string[];
  taskCount: number;
  completedTaskCount: number;
  progress: number;
  tasks?: GoalTask[];
  createdAt: string;
  updatedAt: string;
}
export interface GoalInput {
  title: string;
  horizon: Horizon;
  description: string | null;
  keywords: string[];
  spaceId?: string | null;
}

/** Goals answer bare bodies (no `data` envelope); task changes elsewhere invalidate `['goals', ws]` too. */
export const goalKeys = { all: (ws: string) => ['goals', ws] as const };

export function useGoals(ws: string) {
  return useQuery({
    queryKey: goalKeys.all(ws),
    queryFn: async () => {
      const res = await call(
        api.GET('/api/workspaces/{workspaceId}/goals', { params: { path: { workspaceId: ws }, query: { includeTasks: 'true', limit: 100 } } }),
      );
      return res as unknown as { goals: Goal[]; total: number };
    },
  });
}

function useGoalMutation<T>(ws: string, fn: (input: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: goalKeys.all(ws) }) });
}

export const useCreateGoal = (ws: string) =>
  useGoalMutation(ws, (input: GoalInput) => call(api.POST('/api/workspaces/{workspaceId}/goals', { params: { path: { workspaceId: ws } }, body: input })));

export const useUpdateGoal = (ws: string) =>
  useGoalMutation(ws, ({ id, spaceId: _space, ...input }: GoalInput & { id: string }) =>
    call(api.PATCH('/api/workspaces/{workspaceId}/goals/{goalId}', { params: { path: { workspaceId: ws, goalId: id } }, body: input })),
  );

export const useDeleteGoal = (ws: string) =>
  useGoalMutation(ws, (id: string) => call(api.DELETE('/api/workspaces/{workspaceId}/goals/{goalId}', { params: { path: { workspaceId: ws, goalId: id } } })));

export const useLinkTask = (ws: string) =>
  useGoalMutation(ws, ({ goalId, taskId }: { goalId: string; taskId: string }) =>
    call(api.POST('/api/workspaces/{workspaceId}/goals/{goalId}/tasks', { params: { path: { workspaceId: ws, goalId } }, body: { taskId } })),
  );

export const useUnlinkTask = (ws: string) =>
  useGoalMutation(ws, ({ goalId, taskId }: { goalId: string; taskId: string }) =>
    call(api.DELETE('/api/workspaces/{workspaceId}/goals/{goalId}/tasks/{taskId}', { params: { path: { workspaceId: ws, goalId, taskId } } })),
  );
