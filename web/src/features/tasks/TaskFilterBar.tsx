import { Button, Group, NativeSelect, SegmentedControl, TextInput } from '@mantine/core';
import { useTaskFilters } from './task-filters';
import { PRIORITIES, STATUSES, useLabels, useMembers, useProjects, useTriage } from './tasks.queries';

const ANY = '';

/** Triage buckets with their open-task counts, and the filters of the task views; all of it kept in the URL. */
export function TaskFilterBar({ ws, showStatus }: { ws: string; showStatus: boolean }) {
  const [filters, setFilters] = useTaskFilters();
  const triage = useTriage(ws);
  const labels = useLabels(ws);
  const projects = useProjects(ws);
  const members = useMembers(ws);
  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`);
  const t = triage.data;
  const active = Object.values(filters).some(Boolean);

  return (
    <>
      <SegmentedControl
        aria-label="Triage bucket"
        value={filters.bucket ?? 'all'}
        onChange={(v) => setFilters({ bucket: v === 'all' ? null : v })}
        data={[
          { value: 'all', label: 'All' },
          { value: 'now', label: `Now${count(t?.now)}` },
          { value: 'next', label: `Next${count(t?.next)}` },
          { value: 'later', label: `Later${count(t?.later)}` },
          { value: 'none', label: `Untriaged${count(t?.none)}` },
        ]}
        style={{ maxWidth: '100%', overflowX: 'auto' }}
      />
      <Group gap="sm" align="end" wrap="wrap">
        <NativeSelect
          label="Project"
          value={filters.projectId ?? ANY}
          onChange={(e) => setFilters({ projectId: e.currentTarget.value })}
          data={[{ value: ANY, label: 'Any project' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
        />
        <NativeSelect
          label="Label"
          value={filters.label ?? ANY}
          onChange={(e) => setFilters({ label: e.currentTarget.value })}
          data={[
            { value: ANY, label: 'Any label' },
            ...(labels.data ?? []).map((l) => ({ value: l.name, label: `${l.name} (${l.count})` })),
            // A label from the URL that no task carries any more still shows as chosen.
            ...(filters.label && !labels.data?.some((l) => l.name === filters.label) ? [{ value: filters.label, label: filters.label }] : []),
          ]}
        />
        <NativeSelect
          label="Assignee"
          value={filters.assigneeId ?? ANY}
          onChange={(e) => setFilters({ assigneeId: e.currentTarget.value })}
          data={[{ value: ANY, label: 'Anyone' }, ...(members.data ?? []).map((m) => ({ value: m.id, label: m.name }))]}
        />
        {showStatus && (
          <NativeSelect
            label="Status"
            value={filters.status ?? ANY}
            onChange={(e) => setFilters({ status: e.currentTarget.value })}
            data={[{ value: ANY, label: 'Any status' }, ...STATUSES]}
          />
        )}
        <NativeSelect
          label="Priority"
          value={filters.priority ?? ANY}
          onChange={(e) => setFilters({ priority: e.currentTarget.value })}
          data={[{ value: ANY, label: 'Any priority' }, ...PRIORITIES]}
        />
        <TextInput label="Due by" type="date" value={filters.dueBefore ?? ''} onChange={(e) => setFilters({ dueBefore: e.currentTarget.value })} />
        {active && (
          <Button
            variant="subtle"
            onClick={() => setFilters({ bucket: null, projectId: null, label: null, assigneeId: null, status: null, priority: null, dueBefore: null })}
          >
            Clear filters
          </Button>
        )}
      </Group>
    </>
  );
}
