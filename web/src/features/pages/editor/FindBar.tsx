import { ActionIcon, Button, Group, Paper, Text, TextInput, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconLetterCase, IconReplace, IconX } from '@tabler/icons-react';
import type { Editor } from '@tiptap/core';
import { findNext, findPrev, getMatchHighlights, replaceAll, replaceNext, SearchQuery, setSearchState } from 'prosemirror-search';
import { TextSelection } from '@tiptap/pm/state';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { FIND_EVENT } from './find-replace';

interface Query {
  term: string;
  replace: string;
  caseSensitive: boolean;
}

/** Where the matches are, and which one is selected (1-based; 0 when the selection is on none). */
function matchesOf(editor: Editor) {
  const { from, to } = editor.state.selection;
  const found = getMatchHighlights(editor.state).find();
  const at = found.findIndex((d) => d.from === from && d.to === to);
  return { count: found.length, current: at + 1 };
}

/**
 * The find bar over the page's text (Ctrl/Cmd-F in the text): the term, how many matches and which one, previous and
 * next (Shift+Enter, Enter), case sensitivity; for people who can edit, replace one and replace all. Escape closes it
 * and returns to the text; the highlights go with it.
 */
export function FindBar({ editor, canReplace }: { editor: Editor; canReplace: boolean }) {
  const [open, setOpen] = useState(false);
  const [withReplace, setWithReplace] = useState(false);
  const [query, setQuery] = useState<Query>({ term: '', replace: '', caseSensitive: false });
  const [matches, setMatches] = useState({ count: 0, current: 0 });
  const input = useRef<HTMLInputElement>(null);

  // Where the search started (the caret when the bar opened): typing the term selects the first match from there on.
  const start = useRef(0);

  const apply = useCallback(
    (q: Query) => {
      const sq = new SearchQuery({ search: q.term, replace: q.replace, caseSensitive: q.caseSensitive, literal: true });
      const tr = setSearchState(editor.state.tr, sq);
      const hit = q.term ? (sq.findNext(editor.state, start.current) ?? sq.findNext(editor.state, 0)) : null;
      if (hit) tr.setSelection(TextSelection.create(tr.doc, hit.from, hit.to)).scrollIntoView();
      editor.view.dispatch(tr);
    },
    [editor],
  );
  const change = (patch: Partial<Query>) => {
    const next = { ...query, ...patch };
    setQuery(next);
    apply(next);
  };

  useEffect(() => {
    const on = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
    const show = () => {
      const { from, to, empty } = editor.state.selection;
      const selected = empty ? '' : editor.state.doc.textBetween(from, to, ' ');
      start.current = from;
      setOpen(true);
      if (selected && selected.length <= 200 && !selected.includes('\n')) {
        setQuery((q) => {
          const next = { ...q, term: selected };
          apply(next);
          return next;
        });
      }
      requestAnimationFrame(() => input.current?.select());
    };
    on.on(FIND_EVENT, show);
    return () => on.off(FIND_EVENT, show);
  }, [editor, apply]);

  useEffect(() => {
    if (!open) return;
    const update = () => setMatches(matchesOf(editor));
    update();
    editor.on('transaction', update);
    return () => {
      editor.off('transaction', update);
    };
  }, [editor, open]);

  const close = () => {
    setOpen(false);
    apply({ ...query, term: '' });
    editor.commands.focus();
  };
  const step = (back: boolean) => (back ? findPrev : findNext)(editor.state, editor.view.dispatch);
  const keys = (e: KeyboardEvent<HTMLInputElement>, onEnter: (shift: boolean) => void) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      onEnter(e.shiftKey);
    }
  };

  if (!open) return null;
  const counter = !query.term ? '' : matches.count === 0 ? 'No matches' : `${matches.current || '–'} of ${matches.count}`;
  return (
    <div className="kb-find-anchor">
      <Paper className="kb-find" shadow="md" withBorder p={6} radius="md" role="search" aria-label="Find in page">
        <Group gap={4} wrap="nowrap">
          {canReplace && (
            <Tooltip label={withReplace ? 'Hide replace' : 'Replace'}>
              <ActionIcon
                variant={withReplace ? 'light' : 'subtle'}
                color="gray"
                aria-label="Replace"
                aria-pressed={withReplace}
                onClick={() => setWithReplace((r) => !r)}
              >
                <IconReplace size={16} />
              </ActionIcon>
            </Tooltip>
          )}
          <TextInput
            ref={input}
            size="xs"
            aria-label="Find"
            placeholder="Find in page"
            value={query.term}
            onChange={(e) => change({ term: e.currentTarget.value })}
            onKeyDown={(e) => keys(e, step)}
            style={{ flex: 1, minWidth: 0 }}
          />
          <Text size="xs" c="dimmed" miw={64} ta="center" aria-live="polite">
            {counter}
          </Text>
          <Tooltip label="Match case">
            <ActionIcon
              variant={query.caseSensitive ? 'light' : 'subtle'}
              color="gray"
              aria-label="Match case"
              aria-pressed={query.caseSensitive}
              onClick={() => change({ caseSensitive: !query.caseSensitive })}
            >
              <IconLetterCase size={16} />
            </ActionIcon>
          </Tooltip>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label="Previous match"
            aria-keyshortcuts="Shift+Enter"
            disabled={!matches.count}
            onClick={() => step(true)}
          >
            <IconArrowUp size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" aria-label="Next match" aria-keyshortcuts="Enter" disabled={!matches.count} onClick={() => step(false)}>
            <IconArrowDown size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" aria-label="Close find" onClick={close}>
            <IconX size={16} />
          </ActionIcon>
        </Group>
        {canReplace && withReplace && (
          <Group gap={4} wrap="nowrap" mt={6} pl={32}>
            <TextInput
              size="xs"
              aria-label="Replace with"
              placeholder="Replace with"
              value={query.replace}
              onChange={(e) => change({ replace: e.currentTarget.value })}
              onKeyDown={(e) => keys(e, () => replaceNext(editor.state, editor.view.dispatch))}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button size="compact-xs" variant="default" disabled={!matches.count} onClick={() => replaceNext(editor.state, editor.view.dispatch)}>
              Replace
            </Button>
            <Button size="compact-xs" variant="default" disabled={!matches.count} onClick={() => replaceAll(editor.state, editor.view.dispatch)}>
              Replace all
            </Button>
          </Group>
        )}
      </Paper>
    </div>
  );
}
