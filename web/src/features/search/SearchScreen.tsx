import { Button, Group, Loader, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useSpaces } from '../spaces/spaces.queries';
import { useWorkspace } from '../workspaces/workspace-context';
import { SearchResultList } from './SearchResultList';
import { type ResultType, useSearchResults } from './search.queries';

const PAGE_SIZE = 20;
const MAX_LIMIT = 100; // the API's ceiling; it has no offset, so "more" asks for a longer list

/** Reads the search state from the URL: `?q=…&space=<slug>&type=page|task&limit=…`, so Back and Forward work. */
function useSearchState() {
  const [params, setParams] = useSearchParams();
  const type = params.get('type');
  const limit = Number(params.get('limit'));
  const state = {
    q: params.get('q') ?? '',
    space: params.get('space') ?? '',
    type: type === 'page' || type === 'task' ? (type as ResultType) : undefined,
    limit: Number.isInteger(limit) && limit > PAGE_SIZE ? Math.min(limit, MAX_LIMIT) : PAGE_SIZE,
  };
  /** A new search is a new history entry; asking for more results replaces the current one. */
  const update = (change: Partial<Record<'q' | 'space' | 'type' | 'limit', string | undefined>>, replace = false) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(change)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('limit' in change)) next.delete('limit');
    setParams(next, { replace });
  };
  return { state, update };
}

export default function SearchScreen() {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  const { state, update } = useSearchState();
  const [draft, setDraft] = useState(state.q);
  // The box follows the URL when Back or Forward changes it.
  useEffect(() => setDraft(state.q), [state.q]);

  const space = spaces.data?.find((s) => s.slug === state.space);
  const unknownSpace = Boolean(state.space && spaces.data && !space);
  const results = useSearchResults(workspace.id, { query: unknownSpace ? '' : state.q, spaceId: space?.id, type: state.type, limit: state.limit });
  const waitingForSpace = Boolean(state.space && spaces.isPending);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: draft.trim() || undefined });
  };

  const list = results.data ?? [];
  const canAskMore = list.length >= state.limit && state.limit < MAX_LIMIT;

  return (
    <Stack gap="md" maw={860}>
      <Title order={1} size="h2">
        Search
      </Title>
      <search>
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="Search"
              placeholder="Words, a “quoted phrase”, -excluded"
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
              leftSection={<IconSearch size={16} aria-hidden />}
              style={{ flex: 1 }}
              maxLength={2000}
              autoFocus={!state.q}
            />
            <Button type="submit">Search</Button>
          </Group>
        </form>
      </search>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Space"
          placeholder="All spaces"
          data={(spaces.data ?? []).map((s) => ({ value: s.slug, label: s.name }))}
          value={space ? space.slug : null}
          onChange={(slug) => update({ space: slug ?? undefined })}
          clearable
          searchable
          nothingFoundMessage="No such space"
          w={240}
          error={spaces.error ? 'Spaces could not be loaded' : unknownSpace ? 'This space is not visible to you' : undefined}
        />
        <SegmentedControl
          aria-label="Type"
          data={[
            { value: 'all', label: 'Everything' },
            { value: 'page', label: 'Pages' },
            { value: 'task', label: 'Tasks' },
          ]}
          value={state.type ?? 'all'}
          onChange={(value) => update({ type: value === 'all' ? undefined : value })}
        />
      </Group>

      {!state.q ? (
        <Text c="dimmed">Type what you are looking for and press Enter. Ctrl K opens quick search from anywhere.</Text>
      ) : results.error ? (
        <ErrorNotice error={results.error} title="Search failed" />
      ) : results.isPending || waitingForSpace ? (
        <Loader aria-label="Searching" />
      ) : list.length === 0 ? (
        <Text role="status">
          No results for “{state.q}”{space ? ` in ${space.name}` : ''}
          {state.type ? ` among ${state.type === 'page' ? 'pages' : 'tasks'}` : ''}.
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" role="status">
            {list.length === 1 ? '1 result' : `${list.length}${canAskMore ? '+' : ''} results`} for “{state.q}”{results.isFetching ? ' (updating…)' : ''}
          </Text>
          <SearchResultList results={list} spaces={spaces.data ?? []} />
          {canAskMore && (
            <Button variant="default" onClick={() => update({ limit: String(state.limit + PAGE_SIZE) }, true)} loading={results.isFetching} w="fit-content">
              More results
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}
