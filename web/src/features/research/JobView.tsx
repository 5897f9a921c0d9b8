import { Anchor, Badge, Button, Group, List, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconFileText, IconPlayerStop } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { messageOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { spaceKeys, useSpaces } from '../spaces/spaces.queries';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import {
  isActive,
  type ResearchJob,
  STATUS_COLOR,
  STATUS_LABEL,
  useCancelResearch,
  useReportPage,
  useResearchJob,
  useResearchReport,
} from './research.queries';

const COVERAGE_COLOR = { searched: 'green', partial: 'yellow', skipped: 'gray', failed: 'red' } as const;
const duration = (s: number) => (s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);

/** One research job, polled while it runs: its progress, then its report's summary, coverage and sources. */
export function JobView() {
  const { jobId = '' } = useParams();
  const workspace = useWorkspace();
  const ws = workspace.id;
  const job = useResearchJob(ws, jobId);
  const cancel = useCancelResearch(ws);
  const back = paths.research(workspace.hostname);

  if (job.isPending) return <ScreenLoader />;
  if (job.error)
    return (
      <Stack>
        <Anchor component={Link} to={back}>
          Back to research
        </Anchor>
        <ErrorNotice error={job.error} title="This research job cannot be shown" />
      </Stack>
    );
  const j = job.data;
  const onCancel = () =>
    cancel.mutate(j.id, {
      onSuccess: (r) =>
        notifications.show({
          message: (r as { partialResults?: boolean }).partialResults
            ? 'Research cancelled; what was found so far is kept.'
            : 'Research cancelled before anything was found.',
        }),
      onError: (err) => notifications.show({ color: 'red', title: 'The research was not cancelled', message: messageOf(err) }),
    });

  return (
    <Stack maw={960}>
      <Anchor component={Link} to={back} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          Back to research
        </Group>
      </Anchor>
      <Group justify="space-between" align="start">
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {j.topic}
          </Title>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[j.status]} aria-label={`Status: ${STATUS_LABEL[j.status]}`}>
              {STATUS_LABEL[j.status]}
            </Badge>
            <Text size="sm" c="dimmed">
              {j.sources.join(', ')} · {j.outputMode === 'brief' ? 'brief' : 'long-form'} · budget {j.timeBudget} min
            </Text>
          </Group>
        </Stack>
        {isActive(j.status) && canEditIn(workspace.role) && (
          <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} aria-hidden />} onClick={onCancel} loading={cancel.isPending}>
            Cancel research
          </Button>
        )}
      </Group>
      <Progress value={j.progress} aria-label="Research progress" size="lg" radius="xl" animated={isActive(j.status)} />
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Fact label="Progress" value={`${Math.round(j.progress)}%`} />
        <Fact label="Sources searched" value={`${j.sourcesSearched} of ${j.sources.length}`} />
        <Fact label="Documents found" value={String(j.documentsFound)} />
        <Fact label={isActive(j.status) ? 'Time left (about)' : 'Time taken'} value={duration(isActive(j.status) ? j.estimatedTimeRemaining : j.timeElapsed)} />
      </SimpleGrid>
      {j.status === 'pending' && <Text c="dimmed">Waiting for a worker to pick the job up…</Text>}
      {j.status === 'failed' && <ErrorNotice error={new Error(j.error ?? 'The research failed.')} title="The research failed" />}
      {j.status === 'completed' && <Report job={j} />}
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="xs" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Paper>
  );
}

function Report({ job }: { job: ResearchJob }) {
  const workspace = useWorkspace();
  const report = useResearchReport(workspace.id, job.id, true);
  const pageId = job.pageId ?? report.data?.pageId ?? null;
  const page = useReportPage(workspace.id, pageId);
  const spaces = useSpaces(workspace.id);
  const qc = useQueryClient();
  const space = page.data ? spaces.data?.find((s) => s.id === page.data.spaceId) : undefined;
  // The first report of a person creates their private research space: the cached list may not have it yet.
  const missing = !!page.data && !!spaces.data && !space;
  useEffect(() => {
    if (missing) qc.invalidateQueries({ queryKey: spaceKeys.all(workspace.id) });
  }, [missing, qc, workspace.id]);

  if (report.isPending) return <ScreenLoader />;
  if (report.error) return <ErrorNotice error={report.error} title="The report could not be loaded" />;
  const r = report.data;
  return (
    <Stack component="section" aria-labelledby="report-heading">
      <Group justify="space-between">
        <Title order={2} size="h3" id="report-heading">
          Report
        </Title>
        {space && page.data && (
          <Button component={Link} to={paths.page(workspace.hostname, space.slug, page.data)} leftSection={<IconFileText size={16} aria-hidden />}>
            Open report
          </Button>
        )}
      </Group>
      <ErrorNotice error={page.error} title="The report page cannot be opened" />
      <Text style={{ whiteSpace: 'pre-wrap' }}>{r.summary}</Text>
      <Title order={3} size="h4">
        Coverage
      </Title>
      <List spacing={4} listStyleType="none" p={0} aria-label="Coverage">
        {r.coverage.map((c) => (
          <List.Item key={c.source}>
            <Group gap="xs" wrap="nowrap" align="start">
              <Badge color={COVERAGE_COLOR[c.status]} variant="light" miw={90}>
                {c.status}
              </Badge>
              <Text size="sm">
                <b>{c.source}</b>: {c.detail}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
      <Title order={3} size="h4">
        Sources ({r.sources.length})
      </Title>
      {r.sources.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nothing relevant was found.
        </Text>
      ) : (
        <List spacing={4} aria-label="Sources">
          {r.sources.map((s, i) => (
            <List.Item key={s.url}>
              <Text size="sm">
                [{i + 1}]{' '}
                {s.kind === 'web' ? (
                  <Anchor href={s.url} target="_blank" rel="noreferrer">
                    {s.title}
                  </Anchor>
                ) : (
                  s.title
                )}{' '}
                <Text span c="dimmed" size="xs">
                  ({s.kind}, relevance {Math.round(s.relevance * 100)}%)
                </Text>
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
