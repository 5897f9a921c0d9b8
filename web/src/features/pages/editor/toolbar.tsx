import { ActionIcon, Tooltip } from '@mantine/core';
import type { Editor } from '@tiptap/react';
import type { KeyboardEvent, ReactNode } from 'react';

/** Arrow keys move between a toolbar's buttons (the WAI toolbar pattern); Escape goes back to the text. */
export function toolbarKeys(editor: Editor) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      editor.commands.focus();
      return;
    }
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[data-toolbar-item]')];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    event.preventDefault();
    buttons[(at + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length]?.focus();
  };
}

export function MarkButton(props: { label: string; keys?: string; pressed?: boolean; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={props.keys ? `${props.label} (${props.keys})` : props.label} withinPortal={false} openDelay={400}>
      <ActionIcon
        variant={props.pressed ? 'light' : 'subtle'}
        color={props.pressed ? undefined : 'gray'}
        size="md"
        aria-label={props.label}
        aria-pressed={props.pressed}
        aria-keyshortcuts={props.keys}
        disabled={props.disabled}
        data-toolbar-item=""
        onMouseDown={(e) => e.preventDefault()}
        onClick={props.onClick}
      >
        {props.children}
      </ActionIcon>
    </Tooltip>
  );
}
