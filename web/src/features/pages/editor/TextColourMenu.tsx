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

/** An "A" in the colour it names (each theme's own shade: editor.css), beside the colour's name. */
function Swatch({ colour }: { colour: TextColour | null }) {
  return (
    <span className="kb-colour-swatch" aria-hidden style={colour ? { color: `var(--kb-text-${colour})` } : undefined}>
      A
    </span>
  );
}

/**
 * "Text colour" in the selection toolbar: Default and the palette's colours (names only, as the schema stores them),
 * the one in use ticked (and `aria-current`: Mantine's items are `menuitem`s, which take no `aria-checked`). The button's bar shows the selection's colour.
 */
export function TextColourMenu({ editor }: { editor: Editor }) {
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) => (e.isActive('textColor') ? ((e.getAttributes('textColor').color as TextColour | undefined) ?? null) : null),
  });
  const choose = (colour: TextColour | null) => {
    const chain = editor.chain().focus();
    (colour ? chain.setTextColor(colour) : chain.unsetTextColor()).run();
  };
  const item = (colour: TextColour | null) => (
    <Menu.Item
      key={colour ?? 'default'}
      aria-current={current === colour ? 'true' : undefined}
      leftSection={<Swatch colour={colour} />}
      rightSection={current === colour ? <IconCheck size={14} aria-hidden /> : null}
      onClick={() => choose(colour)}
    >
      {colour ? LABELS[colour] : 'Default'}
    </Menu.Item>
  );
  return (
    <Menu position="bottom-start" withinPortal={false} shadow="md">
      <Menu.Target>
        <ActionIcon
          variant={current ? 'light' : 'subtle'}
          color={current ? undefined : 'gray'}
          size="md"
          aria-label="Text colour"
          data-toolbar-item=""
          className="kb-colour-button"
          style={current ? { '--kb-colour-bar': `var(--kb-text-${current})` } : undefined}
          onMouseDown={(e) => e.preventDefault()}
        >
          <IconTextColor size={16} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown aria-label="Text colour" className="kb-colour-menu">
        {item(null)}
        {TEXT_COLOURS.map(item)}
      </Menu.Dropdown>
    </Menu>
  );
}
