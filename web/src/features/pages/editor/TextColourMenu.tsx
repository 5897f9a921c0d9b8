import { TEXT_COLOURS, type TextColour } from '@editor/text-colours';
import { ActionIcon, Menu } from '@mantine/core';
import { IconCheck, IconTextColor } from '@tabler/icons-react';
import { type Editor, useEditorState } from '@tiptap/react';

/** The palette's names as the menu says them. */
const LABELS: Record<TextColour, string> = {
  gray: 'Gray',
  brown: 'Brown',
  orange: 'Orange',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
  purple: 'Purple',
  pink: 'Pink',
  red: 'Red',
};

type Kind = 'text' | 'background';

/** An "A" in the colour, or on the background, it names (each theme's own shade: editor.css). */
function Swatch({ kind, colour }: { kind: Kind; colour: TextColour | null }) {
  const style = colour ? (kind === 'text' ? { color: `var(--kb-text-${colour})` } : { background: `var(--kb-bg-${colour})` }) : undefined;
  return (
    <span className="kb-colour-swatch" aria-hidden style={style}>
      A
    </span>
  );
}

/**
 * "Text colour" in the selection toolbar: the palette's colours for the text (and Default), then for its background
 * (and No background), names only, as the schema stores them; the ones in use ticked (and `aria-current`: Mantine's
 * items are `menuitem`s, which take no `aria-checked`). The button's bar shows the selection's text colour.
 */
export function TextColourMenu({ editor }: { editor: Editor }) {
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      text: e.isActive('textColor') ? ((e.getAttributes('textColor').color as TextColour | undefined) ?? null) : null,
      background: e.isActive('backgroundColor') ? ((e.getAttributes('backgroundColor').color as TextColour | undefined) ?? null) : null,
    }),
  });
  const choose = (kind: Kind, colour: TextColour | null) => {
    const chain = editor.chain().focus();
    if (kind === 'text') (colour ? chain.setTextColor(colour) : chain.unsetTextColor()).run();
    else (colour ? chain.setBackgroundColor(colour) : chain.unsetBackgroundColor()).run();
  };
  const item = (kind: Kind, colour: TextColour | null) => {
    const chosen = current[kind] === colour;
    const name = colour ? LABELS[colour] : kind === 'text' ? 'Default' : 'No background';
    return (
      <Menu.Item
        key={`${kind}-${colour ?? 'none'}`}
        aria-current={chosen ? 'true' : undefined}
        leftSection={<Swatch kind={kind} colour={colour} />}
        rightSection={chosen ? <IconCheck size={14} aria-hidden /> : null}
        onClick={() => choose(kind, colour)}
      >
        {kind === 'background' && colour ? `${name} background` : name}
      </Menu.Item>
    );
  };
  return (
    <Menu position="bottom-start" withinPortal={false} shadow="md">
      <Menu.Target>
        <ActionIcon
          variant={current.text || current.background ? 'light' : 'subtle'}
          color={current.text || current.background ? undefined : 'gray'}
          size="md"
          aria-label="Text colour"
          data-toolbar-item=""
          className="kb-colour-button"
          style={current.text ? { '--kb-colour-bar': `var(--kb-text-${current.text})` } : undefined}
          onMouseDown={(e) => e.preventDefault()}
        >
          <IconTextColor size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown aria-label="Text colour" className="kb-colour-menu">
        <Menu.Label>Text</Menu.Label>
        {item('text', null)}
        {TEXT_COLOURS.map((c) => item('text', c))}
        <Menu.Label>Background</Menu.Label>
        {item('background', null)}
        {TEXT_COLOURS.map((c) => item('background', c))}
      </Menu.Dropdown>
    </Menu>
  );
}
