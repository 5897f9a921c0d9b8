import { Select } from '@mantine/core';
import { useState } from 'react';
import { useSuggestions } from '../search/search.queries';

/**
 * The page a task is about: type to find a page (the search's page suggestions), or clear to unlink. `current` is the
 * page the task links to now, so its title shows before anything is typed.
 */
export function TaskPagePicker(props: {
  ws: string;
  value: string;
  current?: { id: string; title: string } | null;
  onChange: (pageId: string) => void;
  error?: string;
}) {
  const [query, setQuery] = useState('');
  const suggestions = useSuggestions(props.ws, query);
  const found = (suggestions.data ?? []).filter((s) => s.type === 'page' && s.id).map((s) => ({ value: s.id as string, label: s.text }));
  const current = props.current && props.current.id === props.value ? [{ value: props.current.id, label: props.current.title || 'Untitled' }] : [];
  const data = [...current, ...found.filter((f) => f.value !== props.current?.id)];
  return (
    <Select
      label="Page"
      description="The page this task is about"
      placeholder="Type to find a page"
      searchable
      clearable
      data={data}
      value={props.value || null}
      onChange={(id) => props.onChange(id ?? '')}
      searchValue={query}
      onSearchChange={setQuery}
      nothingFoundMessage={query.trim().length < 2 ? 'Type two letters or more' : 'No page found'}
      filter={({ options }) => options}
      error={props.error}
    />
  );
}
