import { Anchor, Badge, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { Link, Route, Routes, useNavigate } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ScreenLoader } from '../../ui/ScreenLoader';
import { canEditIn, paths, useWorkspace } from '../workspaces/workspace-context';
import { JobView } from './JobView';
import { STATUS_COLOR, STATUS_LABEL, useResearchList } from './research.queries';
import { StartResearchForm } from './StartResearchForm';

/** `/w/:ws/research/*`: start a job and list them; `research/:jobId` follows one job to its report. */
export default function ResearchScreen() {
  return (
    <Routes>
      <Route index element={<ResearchHome />} />
      <Route path=":jobId" element={<JobView />} />
    </Routes>
  );
}

function ResearchHome() {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const jobs = useResearchList(workspace.id);
  const jobHref = (id: string) => `${paths.research(workspace.hostname)}/${id}`;
  return (
    <Stack maw={960}>
      <Title order={1}>Research</Title>
      {canEditIn(workspace.role) && <StartResearchForm ws={workspace.id} onStarted={(job) => navigate(jobHref(job.id))} />}
      <Title order={2} size="h3">
        Jobs
      </Title>
      {jobs.isPending && <ScreenLoader />}
      <ErrorNotice error={jobs.error} title="Research jobs could not be loaded" />
      {jobs.data?.jobs.length === 0 && <Text c="dimmed">No research yet.</Text>}
      {jobs.data && jobs.data.jobs.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Research jobs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Question</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Progress</Table.Th>
                <Table.Th>Started</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {jobs.data.jobs.map((j) => (
                <Table.Tr key={j.id}>
                  <Table.Td>
                    <Anchor component={Link} to={jobHref(j.id)}>
                      {j.topic}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[j.status]} variant="light">
                      {STATUS_LABEL[j.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td w={160}>
                    <Progress value={j.progress} aria-label={`Progress of ${j.topic}`} />
                  </Table.Td>
                  <Table.Td>{new Date(j.createdAt).toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
