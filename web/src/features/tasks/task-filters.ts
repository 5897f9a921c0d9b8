import { useSearchParams } from 'react-router';
import { BUCKETS, PRIORITIES, STATUSES, type TaskFilters } from './tasks.queries';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(value: string | null, allowed: readonly T[]) => (value && allowed.includes(value as T) ? (value as T) : undefined);

/** The task filters live in the URL query, so a filtered view can be reloaded, shared and navigated back to. */
export function useTaskFilters(): [TaskFilters, (patch: Partial<Record<keyof TaskFilters, string | null>>) => void] {
  const [params, setParams] = useSearchParams();
  const filters: TaskFilters = {
    bucket: oneOf(params.get('bucket'), [...BUCKETS.map((b) => b.value), 'none'] as const),
    projectId: params.get('project') ?? undefined,
    label: params.get('label') ?? undefined,
    assigneeId: params.get('assignee') ?? undefined,
    status: oneOf(
      params.get('status'),
      STATUSES.map((s) => s.value),
    ),
    priority: oneOf(
      params.get('priority'),
      PRIORITIES.map((p) => p.value),
    ),
    dueBefore: ISO_DATE.test(params.get('due') ?? '') ? (params.get('due') as string) : undefined,
  };
  const names: Record<keyof TaskFilters, string> = {
    bucket: 'bucket',
    projectId: 'project',
    label: 'label',
    assigneeId: 'assignee',
    status: 'status',
    priority: 'priority',
    dueBefore: 'due',
  };
  const update = (patch: Partial<Record<keyof TaskFilters, string | null>>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(patch)) {
          const name = names[key as keyof TaskFilters];
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  return [filters, update];
}

/** Drops the filters that do not apply to a view (the board shows every status as a column). */
export const withoutStatus = ({ status: _status, ...rest }: TaskFilters): TaskFilters => rest;
