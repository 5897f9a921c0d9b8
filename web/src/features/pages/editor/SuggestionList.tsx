import { Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { ReactRenderer } from '@tiptap/react';
import type { SuggestionKeyDownProps, SuggestionOptions, SuggestionProps } from '@tiptap/suggestion';
import { forwardRef, type ReactNode, useImperativeHandle, useState } from 'react';

export interface SuggestionItem {
  key: string;
  label: string;
  hint?: string;
  icon?: ReactNode;
}

interface ListProps {
  items: SuggestionItem[];
  command: (item: SuggestionItem) => void;
  /** The list's accessible name ("Insert block", "Mention"). */
  label: string;
  empty: string;
}

export interface ListHandle {
  onKeyDown(event: KeyboardEvent): boolean;
}

/**
 * The popup of a suggestion ("/" menu, "@" mentions): the caret stays in the editor, arrows move the highlighted
 * option, Enter or Tab picks it, Escape closes (handled by the suggestion plugin). Options are buttons too, for pointers.
 */
export const SuggestionList = forwardRef<ListHandle, ListProps>(function SuggestionList({ items, command, label, empty }, ref) {
  const [active, setActive] = useState(0);
  const [shown, setShown] = useState(items);
  if (shown !== items) {
    // A new query gives a new list: the highlight goes back to its first option.
    setShown(items);
    setActive(0);
  }
  useImperativeHandle(ref, () => ({
    onKeyDown(event) {
      if (!items.length) return false;
      if (event.key === 'ArrowDown') setActive((i) => (i + 1) % items.length);
      else if (event.key === 'ArrowUp') setActive((i) => (i + items.length - 1) % items.length);
      else if (event.key === 'Enter' || event.key === 'Tab') command(items[active]);
      else return false;
      return true;
    },
  }));
  return (
    <Paper shadow="md" withBorder p={4} miw={240} maw={320} mah={320} style={{ overflowY: 'auto', zIndex: 300 }}>
      <div role="listbox" aria-label={label}>
        {items.length === 0 && (
          <Text size="sm" c="dimmed" p="xs">
            {empty}
          </Text>
        )}
        {items.map((item, i) => (
          <UnstyledButton
            key={item.key}
            role="option"
            aria-selected={i === active}
            tabIndex={-1}
            onMouseDown={(e) => e.preventDefault()} // keep the editor's caret where the trigger was typed
            onClick={() => command(item)}
            onMouseEnter={() => setActive(i)}
            w="100%"
            p={6}
            style={{ borderRadius: 4, background: i === active ? 'var(--mantine-color-default-hover)' : undefined }}
          >
            <Group gap="xs" wrap="nowrap">
              {item.icon}
              <div>
                <Text size="sm">{item.label}</Text>
                {item.hint && (
                  <Text size="xs" c="dimmed">
                    {item.hint}
                  </Text>
                )}
              </div>
            </Group>
          </UnstyledButton>
        ))}
      </div>
    </Paper>
  );
});

/**
 * Where the suggestion plugins place their list (`floatingUi`): fixed to the viewport and kept 8 px inside it, so a
 * caret near a phone's right edge does not push the list off the screen.
 */
export const LIST_PLACEMENT: NonNullable<SuggestionOptions<SuggestionItem>['floatingUi']> = {
  strategy: 'fixed',
  middleware: [
    {
      name: 'keepInView',
      fn: ({ x, y, rects }) => ({ x: Math.max(8, Math.min(x, window.innerWidth - rects.floating.width - 8)), y }),
    },
  ],
};

/** The `render` of a suggestion plugin: the list above, mounted and positioned by the plugin next to the caret. */
export function renderList(label: string, empty: string): SuggestionOptions<SuggestionItem>['render'] {
  return () => {
    let renderer: ReactRenderer<ListHandle, ListProps> | null = null;
    let unmount: (() => void) | null = null;
    let shown: SuggestionItem[] = [];
    // While a query's items are on their way (the plugin then passes none), the list keeps the last ones rather than
    // flickering empty on every key; before the first arrive it says "Loading…" rather than "no match".
    const propsOf = (p: SuggestionProps<SuggestionItem>): ListProps => {
      if (!p.loading) shown = p.items;
      return { items: shown, command: p.command, label, empty: p.loading ? 'Loading…' : empty };
    };
    return {
      onStart(p) {
        renderer = new ReactRenderer(SuggestionList, { props: propsOf(p), editor: p.editor });
        (renderer.element as HTMLElement).style.zIndex = '300';
        unmount = p.mount(renderer.element as HTMLElement);
      },
      onUpdate(p) {
        renderer?.updateProps(propsOf(p));
      },
      onKeyDown(p: SuggestionKeyDownProps) {
        if (p.event.key === 'Escape') return false;
        return renderer?.ref?.onKeyDown(p.event) ?? false;
      },
      onExit() {
        unmount?.();
        renderer?.destroy();
        renderer = null;
        unmount = null;
      },
    };
  };
}
