import { Button, Checkbox, Group, NativeSelect, NumberInput, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { SegmentedField } from '../../ui/SegmentedField';
import { useSpaces } from '../spaces/spaces.queries';
import { type ResearchJob, type ResearchSource, useStartResearch } from './research.queries';

const MIN_BUDGET = 5;

/** Starts a research job: the question, where to look, how long it may take, and where the report goes. */
export function StartResearchForm({ ws, onStarted }: { ws: string; onStarted: (job: ResearchJob) => void }) {
  const start = useStartResearch(ws);
  const spaces = useSpaces(ws);
  const [topic, setTopic] = useState('');
  const [sources, setSources] = useState<string[]>(['docs']);
  const [repoUrl, setRepoUrl] = useState('');
  const [outputMode, setOutputMode] = useState<'longform' | 'brief'>('brief');
  const [budget, setBudget] = useState<number | string>(10);
  const [spaceId, setSpaceId] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const fields = start.error instanceof ApiError ? start.error.fieldErrors() : {};
  const shown = { ...fields, ...problems };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!topic.trim()) found.topic = 'Say what to research.';
    if (sources.length === 0) found.sources = 'Choose at least one source.';
    if (sources.includes('repository') && !repoUrl.trim()) found['repository.url'] = 'Give the repository to read.';
    if (typeof budget !== 'number' || budget < MIN_BUDGET) found.timeBudget = `At least ${MIN_BUDGET} minutes.`;
    setProblems(found);
    if (Object.keys(found).length) return;
    start.mutate(
      {
        topic: topic.trim(),
        sources: sources as ResearchSource[],
        outputMode,
        timeBudget: budget as number,
        ...(spaceId ? { targetSpaceId: spaceId } : {}),
        ...(sources.includes('repository') ? { repository: { url: repoUrl.trim() } } : {}),
      },
      { onSuccess: onStarted },
    );
  };

  return (
    <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate aria-labelledby="start-research">
      <Stack gap="sm">
        <Title order={2} size="h3" id="start-research">
          Start research
        </Title>
        <Textarea
          label="Question"
          description="What should be found out?"
          required
          autosize
          minRows={2}
          value={topic}
          onChange={(e) => setTopic(e.currentTarget.value)}
          error={shown.topic}
        />
        <Checkbox.Group label="Sources" value={sources} onChange={setSources} error={shown.sources}>
          <Stack gap={6} mt={6}>
            <Checkbox value="docs" label="Docs" description="Pages and tasks you can read" />
            <Checkbox value="web" label="Web" description="Needs a web search service; without one it is reported as skipped" />
            <Checkbox value="repository" label="Repository" description="A git repository's files" />
          </Stack>
        </Checkbox.Group>
        {sources.includes('repository') && (
          <TextInput
            label="Repository URL"
            placeholder="https://example.com/team/project.git"
            value={repoUrl}
            onChange={(e) => setRepoUrl(e.currentTarget.value)}
            error={shown['repository.url'] ?? shown.repository}
          />
        )}
        <SegmentedField
          label="Report style"
          value={outputMode}
          onChange={setOutputMode}
          data={[
            { value: 'brief', label: 'Brief' },
            { value: 'longform', label: 'Long-form' },
          ]}
        />
        <Group grow align="start">
          <NumberInput label="Time budget (minutes)" min={MIN_BUDGET} max={600} value={budget} onChange={setBudget} error={shown.timeBudget} />
          <NativeSelect
            label="Save the report in"
            value={spaceId}
            onChange={(e) => setSpaceId(e.currentTarget.value)}
            data={[{ value: '', label: 'My private research space' }, ...(spaces.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            error={shown.targetSpaceId}
          />
        </Group>
        {Object.keys(fields).length === 0 && <ErrorNotice error={start.error} title="The research did not start" />}
        <Group justify="flex-end">
          <Button type="submit" loading={start.isPending}>
            Start research
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
