import { Anchor, Badge, Box, Button, Code, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ItemTable } from '../../ui/ItemTable';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { BUG_STATUSES, type BugStatus, bugKeys, SEVERITY_COLOR, statusLabel, useBugReport, useBugReports } from './bug-reports.queries';
import { shortDate } from './settings.queries';

/** Bug reports of the workspace (admins only: the section is not offered to anyone else). */
export function BugReportsSection() {
  return (
    <Routes>
      <Route index element={<BugList />} />
      <Route path=":bugId" element={<BugDetail />} />
    </Routes>
  );
}

function BugList() {
  const workspace = useWorkspace();
  const [status, setStatus] = useState<BugStatus | null>(null);
  const [page, setPage] = useState(1);
  const bugs = useBugReports(workspace.id, status, page);
  return (
    <Stack>
      <Title order={2}>Bug reports</Title>
      <Select
        label="Status"
        placeholder="Any status"
        data={BUG_STATUSES}
        value={status}
        onChange={(v) => {
          setStatus(v as BugStatus | null);
          setPage(1);
        }}
        clearable
        w={200}
      />
      <ItemTable
        items={bugs.data?.items}
        loading={bugs.isPending}
        error={bugs.error}
        empty={`No bug reports${status ? ` with status ${statusLabel(status)}` : ''}.`}
        minWidth={560}
        columns={['Title', 'Severity', 'Status', 'Seen', 'Reported']}
        rowKey={(b) => b.id}
      >
        {(b) => (
          <>
            <Table.Td>
              <Anchor component={Link} to={paths.settings(workspace.hostname, `bug-reports/${b.id}`)}>
                {b.title}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Badge color={SEVERITY_COLOR[b.severity]} variant="light">
                {b.severity}
              </Badge>
            </Table.Td>
            <Table.Td>{statusLabel(b.status)}</Table.Td>
            <Table.Td>{b.occurrenceCount}×</Table.Td>
            <Table.Td>{shortDate(b.createdAt)}</Table.Td>
          </>
        )}
      </ItemTable>
      {(bugs.data?.meta.hasPrevPage || bugs.data?.meta.hasNextPage) && (
        <Group>
          <Button variant="default" size="xs" disabled={!bugs.data.meta.hasPrevPage} onClick={() => setPage(page - 1)}>
            Previous page
          </Button>
          <Text size="sm">Page {page}</Text>
          <Button variant="default" size="xs" disabled={!bugs.data.meta.hasNextPage} onClick={() => setPage(page + 1)}>
            Next page
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function BugDetail() {
  const { bugId = '' } = useParams();
  const workspace = useWorkspace();
  const bug = useBugReport(workspace.id, bugId);
  const client = useQueryClient();
  const update = useMutation({
    mutationFn: async (status: BugStatus) => data(api.POST('/api/bug-reports/update', { body: { bugReportId: bugId, status } })),
    onSuccess: (_, status) => {
      notifications.show({ color: 'green', message: `Status set to ${statusLabel(status)}` });
      return client.invalidateQueries({ queryKey: bugKeys.all(workspace.id) });
    },
  });
  const back = (
    <Anchor component={Link} to={paths.settings(workspace.hostname, 'bug-reports')} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} aria-hidden /> All bug reports
      </Group>
    </Anchor>
  );
  if (bug.isPending) return <ScreenLoader />;
  if (bug.error)
    return (
      <Stack>
        {back}
        <ErrorNotice error={bug.error} />
      </Stack>
    );
  const b = bug.data;
  return (
    <Stack>
      {back}
      <Title order={2}>{b.title}</Title>
      <Group gap="xs">
        <Badge color={SEVERITY_COLOR[b.severity]} variant="light">
          {b.severity}
        </Badge>
        <Text size="sm" c="dimmed">
          {b.source} · seen {b.occurrenceCount}× · reported {shortDate(b.createdAt)}
          {b.reporter ? ` by ${b.reporter.name}` : ''}
          {b.resolvedAt ? ` · resolved ${shortDate(b.resolvedAt)}` : ''}
        </Text>
      </Group>
      <Select label="Status" data={BUG_STATUSES} value={b.status} onChange={(v) => v && v !== b.status && update.mutate(v as BugStatus)} allowDeselect={false} w={200} disabled={update.isPending} />
      <ErrorNotice error={update.error} title="Could not change the status" />
      {b.description && <Text style={{ whiteSpace: 'pre-wrap' }}>{b.description}</Text>}
      {b.errorMessage && (
        <Text size="sm">
          Error{b.errorCode ? ` ${b.errorCode}` : ''}: <Code>{b.errorMessage}</Code>
        </Text>
      )}
      {b.errorStack && (
        <Box component="pre" aria-label="Error stack" p="xs" style={{ whiteSpace: 'pre-wrap', fontSize: 12, overflow: 'auto', maxHeight: 300, background: 'var(--mantine-color-default-hover)' }}>
          {b.errorStack}
        </Box>
      )}
      {!!b.userJourney?.recentActions.length && (
        <Stack gap={4}>
          <Title order={3}>What the user did before</Title>
          {b.userJourney.recentActions.map((a) => (
            <Text key={a.id} size="sm">
              {new Date(a.timestamp).toLocaleTimeString()} · {a.summary}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
