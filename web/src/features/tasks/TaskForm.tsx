import { Button, Group, NativeSelect, SimpleGrid, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { TaskPagePicker } from './TaskPagePicker';
import {
  BUCKETS,
  PRIORITIES,
  STATUSES,
  type TaskBucket,
  type TaskDetail,
  type TaskInput,
  type TaskPriority,
  type TaskStatus,
  useMembers,
  useProjects,
} from './tasks.queries';

interface Values {
  title: string;
  description: string;
  status: TaskStatus;
  priority: string;
  bucket: string;
  projectId: string;
  pageId: string;
  assigneeId: string;
  dueDate: string;
  labels: string[];
}

const valuesOf = (task?: TaskDetail, defaults?: Partial<Values>): Values => ({
  title: task?.title ?? '',
  description: task?.description ?? '',
  status: task?.status ?? 'todo',
  priority: task?.priority ?? '',
  bucket: task?.bucket ?? '',
  projectId: task?.projectId ?? '',
  pageId: task?.pageId ?? '',
  assigneeId: task?.assigneeId ?? '',
  dueDate: task?.dueDate ?? '',
  labels: task?.labels ?? [],
  ...defaults,
});

/** Empty choices mean "none": the API takes null to clear a field. */
function inputOf(v: Values, withState: boolean): TaskInput & { title: string } {
  return {
    title: v.title.trim(),
    description: v.description.trim() ? v.description : null,
    priority: (v.priority || null) as TaskPriority | null,
    projectId: v.projectId || null,
    pageId: v.pageId || null,
    assigneeId: v.assigneeId || null,
    dueDate: v.dueDate || null,
    labels: v.labels,
    ...(withState ? { status: v.status, bucket: (v.bucket || null) as TaskBucket | null } : {}),
  };
}

/**
 * The fields of a task, for creating one and editing it. `withState` adds status and triage bucket (a new task starts
 * as to do, untriaged unless the filter it was made under says otherwise).
 */
export function TaskForm(props: {
  ws: string;
  task?: TaskDetail;
  defaults?: Partial<Values>;
  withState?: boolean;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: TaskInput & { title: string }) => void;
  onCancel?: () => void;
}) {
  const { ws, task, withState = false } = props;
  const [v, setV] = useState<Values>(() => valuesOf(task, props.defaults));
  const [titleError, setTitleError] = useState<string | null>(null);
  const projects = useProjects(ws);
  const members = useMembers(ws);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setV((prev) => ({ ...prev, [key]: value }));
  const fields = props.error instanceof ApiError ? props.error.fieldErrors() : {};
  const shownAtField = Object.keys(fields).length > 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!v.title.trim()) {
      setTitleError('A task needs a title.');
      return;
    }
    setTitleError(null);
    props.onSubmit(inputOf(v, withState));
  };

  const projectChoices = (projects.data ?? []).filter((p) => !p.archived || p.id === v.projectId);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Title"
          required
          value={v.title}
          onChange={(e) => set('title', e.currentTarget.value)}
          error={titleError ?? fields.title}
          data-autofocus
        />
        <Textarea
          label="Description"
          description="Markdown"
          autosize
          minRows={3}
          value={v.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          error={fields.description}
        />
        {withState && (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <NativeSelect label="Status" value={v.status} onChange={(e) => set('status', e.currentTarget.value as TaskStatus)} data={STATUSES} />
            <NativeSelect
              label="Triage bucket"
              value={v.bucket}
              onChange={(e) => set('bucket', e.currentTarget.value)}
              data={[{ value: '', label: 'Untriaged' }, ...BUCKETS]}
              error={fields.bucket}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NativeSelect
            label="Project"
            value={v.projectId}
            onChange={(e) => set('projectId', e.currentTarget.value)}
            data={[{ value: '', label: 'No project' }, ...projectChoices.map((p) => ({ value: p.id, label: p.archived ? `${p.name} (archived)` : p.name }))]}
            error={fields.projectId}
          />
          <NativeSelect
            label="Assignee"
            value={v.assigneeId}
            onChange={(e) => set('assigneeId', e.currentTarget.value)}
            data={[{ value: '', label: 'Unassigned' }, ...(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))]}
            error={fields.assigneeId}
          />
          <TextInput label="Due date" type="date" value={v.dueDate} onChange={(e) => set('dueDate', e.currentTarget.value)} error={fields.dueDate} />
          <NativeSelect
            label="Priority"
            value={v.priority}
            onChange={(e) => set('priority', e.currentTarget.value)}
            data={[{ value: '', label: 'No priority' }, ...PRIORITIES]}
            error={fields.priority}
          />
        </SimpleGrid>
        <TaskPagePicker ws={ws} value={v.pageId} current={task?.page} onChange={(id) => set('pageId', id)} error={fields.pageId} />
        <TagsInput
          label="Labels"
          description="Press Enter after each label"
          value={v.labels}
          onChange={(labels) => set('labels', labels)}
          maxTags={20}
          error={fields.labels ?? Object.entries(fields).find(([k]) => k.startsWith('labels.'))?.[1]}
        />
        {!shownAtField && <ErrorNotice error={props.error} title="The task was not saved" />}
        <Group justify="flex-end">
          {props.onCancel && (
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={props.pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
