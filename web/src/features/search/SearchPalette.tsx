import '@mantine/spotlight/styles.css';
import './search-palette.css';
import { Group, Kbd, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { createSpotlight, Spotlight, type SpotlightStore } from '@mantine/spotlight';
import { IconFileText, IconSearch, IconTextRecognition } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { messageOf } from '../../api/errors';
import { IconMark } from '../../ui/IconMark';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { completeLastWord, pagePathById, type Suggestion, useSuggestions } from './search.queries';

const LIST_ID = 'search-palette-suggestions';

/**
 * The index of the row Spotlight marks as selected. Spotlight moves its `data-selected` attribute without telling
 * React, so watch the attribute to mirror it into `aria-selected` and the input's `aria-activedescendant`.
 */
function useSelectedRow() {
  const [selected, setSelected] = useState(-1);
  useEffect(() => {
    const sync = () => {
      const rows = [...document.querySelectorAll(`#${LIST_ID} [data-action]`)];
      setSelected(rows.findIndex((row) => row.hasAttribute('data-selected')));
    };
    const observer = new MutationObserver(sync);
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-selected'], subtree: true, childList: true });
    return () => observer.disconnect();
  }, []);
  return selected;
}

/** Marks the row at `index` as the one Enter triggers (Spotlight's own keys read the same attribute and state). */
function markSelected(store: SpotlightStore, index: number) {
  const rows = document.querySelectorAll(`#${LIST_ID} [data-action]`);
  for (const row of document.querySelectorAll(`#${LIST_ID} [data-selected]`)) row.removeAttribute('data-selected');
  if (!rows.length) return;
  const i = Math.min(Math.max(index, 0), rows.length - 1);
  rows[i].setAttribute('data-selected', 'true');
  store.updateState((state) => ({ ...state, selected: i }));
}

/**
 * The Ctrl/Cmd-K palette. The first row is always "Search for “…”", so Enter on what was typed opens the full
 * results; the arrow keys move to a suggestion: a page opens it, a word completes the last typed word.
 */
export default function SearchPalette({ openSignal }: { openSignal: number }) {
  const [[store, palette]] = useState(createSpotlight);
  const [query, setQuery] = useState('');
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const selected = useSelectedRow();
  const [debounced] = useDebouncedValue(query, 150);
  const suggestions = useSuggestions(workspace.id, debounced);
  const text = query.trim();
  // Pages first: opening one is the palette's main use; word completions follow.
  const items: Suggestion[] = text.length >= 2 ? [...(suggestions.data ?? [])].sort((a, b) => (a.type === b.type ? 0 : a.type === 'page' ? -1 : 1)) : [];

  // biome-ignore lint/correctness/useExhaustiveDependencies: every press of Ctrl-K or the button opens it again
  useEffect(() => palette.open(), [openSignal]);

  // New suggestions replace the rows under the selection: mark the row now at the selected index again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the rows change
  useEffect(() => {
    const current = store.getState().selected;
    if (current >= 0) markSelected(store, current);
  }, [suggestions.data]);

  const openPage = async (id: string) => {
    try {
      navigate(await pagePathById(client, workspace, id));
    } catch (err) {
      notifications.show({ color: 'red', title: 'The page could not be opened', message: messageOf(err) });
    }
  };

  let index = 0;
  const rowState = () => {
    const i = index++;
    const id = `${LIST_ID}-${i}`;
    // Spotlight.Action drops an `id` prop: set on the element, so the input's `aria-activedescendant` names a row.
    const ref = (row: HTMLButtonElement | null) => {
      if (row) row.id = id;
    };
    return { ref, role: 'option', 'aria-selected': selected === i };
  };

  return (
    <Spotlight.Root
      classNames={{ action: 'kb-palette-action' }}
      store={store}
      query={query}
      onQueryChange={setQuery}
      shortcut={null}
      scrollable
      maxHeight={420}
      aria-label="Search the workspace"
    >
      <Spotlight.Search
        aria-label="Quick search"
        placeholder="Search pages and tasks…"
        leftSection={<IconSearch size={18} aria-hidden />}
        rightSection={suggestions.isFetching ? <Loader size="xs" aria-label="Loading suggestions" /> : null}
        role="combobox"
        aria-expanded={text.length > 0}
        aria-controls={LIST_ID}
        aria-autocomplete="list"
        aria-activedescendant={selected >= 0 ? `${LIST_ID}-${selected}` : undefined}
      />
      <Spotlight.ActionsList id={LIST_ID} role="listbox" aria-label="Suggestions">
        {text ? (
          <Spotlight.Action
            key="search-for"
            {...rowState()}
            leftSection={<IconSearch size={16} aria-hidden />}
            label={`Search for “${text}”`}
            description="All results, with filters"
            onClick={() => navigate(paths.search(workspace.hostname, text))}
          />
        ) : (
          <Spotlight.Empty>Type to find pages and tasks.</Spotlight.Empty>
        )}
        {items.map((s) =>
          s.type === 'page' && s.id ? (
            <Spotlight.Action
              key={`page-${s.id}`}
              {...rowState()}
              leftSection={<IconMark icon={s.icon} fallback={<IconFileText size={16} aria-hidden />} />}
              label={s.text}
              description="Page"
              onClick={() => void openPage(s.id as string)}
            />
          ) : (
            <Spotlight.Action
              key={`word-${s.text}`}
              {...rowState()}
              leftSection={<IconTextRecognition size={16} aria-hidden />}
              label={s.text}
              description="Complete the word"
              closeSpotlightOnTrigger={false}
              onClick={() => {
                setQuery(completeLastWord(query, s.text));
                markSelected(store, 0);
              }}
            />
          ),
        )}
        {suggestions.error && text.length >= 2 ? (
          <Text role="alert" c="red" size="sm" px="md" py="xs">
            Suggestions are unavailable: {messageOf(suggestions.error)}
          </Text>
        ) : null}
      </Spotlight.ActionsList>
      <Spotlight.Footer>
        <Group gap="md" justify="center" c="dimmed">
          <Text size="xs">
            <Kbd size="xs">↑</Kbd> <Kbd size="xs">↓</Kbd> move
          </Text>
          <Text size="xs">
            <Kbd size="xs">Enter</Kbd> open
          </Text>
          <Text size="xs">
            <Kbd size="xs">Esc</Kbd> close
          </Text>
        </Group>
      </Spotlight.Footer>
    </Spotlight.Root>
  );
}
