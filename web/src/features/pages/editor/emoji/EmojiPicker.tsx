import { Text, TextInput } from '@mantine/core';
import { type KeyboardEvent, memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Emoji, type EmojiData, emojisIfLoaded, GROUPS, loadEmojis, searchEmojis } from './emoji-data';

/** Cells in a row (editor.css's grid has as many): the arrows move by one, up and down by a row. */
const COLUMNS = 9;

interface Section {
  title: string;
  emojis: Emoji[];
  /** The index of its first emoji among all the picker shows. */
  first: number;
}

function sectionsOf(data: EmojiData, query: string): Section[] {
  const lists = query.trim()
    ? [{ title: 'Results', emojis: searchEmojis(data, query, 450, true).map((m) => m.emoji) }]
    : GROUPS.flatMap((title, group) => (title ? [{ title, emojis: data.all.filter((e) => e.group === group) }] : []));
  let first = 0;
  return lists
    .filter((l) => l.emojis.length)
    .map((l) => {
      const section = { ...l, first };
      first += l.emojis.length;
      return section;
    });
}

/** Where `index` goes on an arrow key: the rows are each section's, so a short last row is kept to (not wrapped past). */
function moveInGrid(sections: Section[], index: number, key: string): number {
  const total = sections.reduce((n, s) => n + s.emojis.length, 0);
  if (key === 'ArrowRight') return Math.min(total - 1, index + 1);
  if (key === 'ArrowLeft') return Math.max(0, index - 1);
  // Rows as [start, length], across the sections.
  const rows = sections.flatMap((s) =>
    Array.from({ length: Math.ceil(s.emojis.length / COLUMNS) }, (_, r) => [s.first + r * COLUMNS, Math.min(COLUMNS, s.emojis.length - r * COLUMNS)]),
  );
  const row = rows.findIndex(([start, length]) => index >= start && index < start + length);
  const target = rows[row + (key === 'ArrowDown' ? 1 : -1)];
  if (!target) return index;
  return target[0] + Math.min(index - rows[row][0], target[1] - 1);
}

const optionId = (base: string, index: number) => `${base}-${index}`;

/** One group's cells. Memoised: moving the highlight re-renders the two sections it leaves and enters, not 1,900 buttons. */
const GroupCells = memo(function GroupCells({ section, active, base }: { section: Section; active: number; base: string }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a listbox's options are grouped by role="group" (a fieldset is for form controls).
    <div role="group" aria-labelledby={`${base}-${section.first}-title`} className="kb-emoji-group">
      <div id={`${base}-${section.first}-title`} className="kb-emoji-group-title">
        {section.title}
      </div>
      <div className="kb-emoji-cells">
        {section.emojis.map((e, i) => {
          const index = section.first + i;
          return (
            <button
              key={e.char}
              type="button"
              role="option"
              id={optionId(base, index)}
              aria-selected={index === active}
              aria-label={e.name}
              title={e.codes.length ? `${e.name} :${e.codes[0]}:` : e.name}
              tabIndex={-1}
              data-index={index}
              className="kb-emoji-cell"
            >
              {e.char}
            </button>
          );
        })}
      </div>
    </div>
  );
});

/**
 * The emoji picker (the slash menu's "Emoji"; its own chunk, and the data another, both loaded when it first opens):
 * a search box that keeps the focus, and every emoji by group below it. Typing filters by shortcode, name and tags;
 * the arrows move the highlight through the grid, Enter puts the highlighted emoji in, Escape goes back to the text.
 * A click puts one in too.
 */
export default function EmojiPicker({ onPick, onClose }: { onPick: (char: string) => void; onClose: () => void }) {
  const [data, setData] = useState<EmojiData | null>(emojisIfLoaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!data) loadEmojis().then(setData, () => setFailed(true));
  }, [data]);
  // The slash menu's pick focuses the editor a frame later (Tiptap's focus command): the search takes it back after that.
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => search.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const sections = useMemo(() => (data ? sectionsOf(data, query) : []), [data, query]);
  const all = useMemo(() => sections.flatMap((s) => s.emojis), [sections]);
  const base = useId().replace(/:/g, '');
  useEffect(() => {
    document.getElementById(optionId(base, active))?.scrollIntoView({ block: 'nearest' });
  }, [base, active]);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') onClose();
    else if (event.key === 'Enter') {
      if (all[active]) onPick(all[active].char);
    } else if (['ArrowDown', 'ArrowUp'].includes(event.key) || (['ArrowLeft', 'ArrowRight'].includes(event.key) && !query)) {
      // Left and right move in the text while there is some to move in.
      setActive((i) => moveInGrid(sections, i, event.key));
    } else return;
    event.preventDefault();
  };
  const status = failed ? 'Emoji could not be loaded. Close and try again.' : !data ? 'Loading emoji…' : all.length ? null : 'No emoji matches';
  return (
    <div className="kb-emoji-picker">
      <TextInput
        ref={search}
        size="xs"
        aria-label="Search emoji"
        placeholder="Search emoji"
        role="combobox"
        aria-expanded="true"
        aria-controls={`${base}-list`}
        aria-activedescendant={all[active] ? optionId(base, active) : undefined}
        autoFocus
        data-autofocus
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the search box's (aria-activedescendant); this is the pointer's way in. */}
      <div
        id={`${base}-list`}
        role="listbox"
        aria-label="Emoji"
        className="kb-emoji-grid"
        onMouseDown={(e) => e.preventDefault()} // the focus stays in the search box
        onClick={(e) => {
          const index = Number((e.target as HTMLElement).closest<HTMLElement>('[data-index]')?.dataset.index);
          if (all[index]) onPick(all[index].char);
        }}
      >
        {sections.map((s) => (
          <GroupCells key={s.title} section={s} base={base} active={active >= s.first && active < s.first + s.emojis.length ? active : -1} />
        ))}
      </div>
      {status && (
        <Text size="sm" c="dimmed" p="xs" role="status">
          {status}
        </Text>
      )}
    </div>
  );
}
