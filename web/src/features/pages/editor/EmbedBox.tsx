import { ALLOWED_EMBED_PROVIDERS, checkEmbedUrl } from '@editor/embeds';
import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import type { Editor } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import { useCallback, useEffect, useRef, useState } from 'react';
import { EMBED_BOX_EVENT } from './slash-menu';

const MENU_KEY = 'kbEmbedBox';
const PLACEMENT = { placement: 'bottom-start', offset: 6, flip: true, shift: { padding: 8 } } as const;

/** A refusal of the shared allow-list (embeds.ts), as a sentence. */
const sentence = (reason: string) => `${reason[0].toUpperCase()}${reason.slice(1)}.`;

/**
 * The embed box: the link to embed, checked by the shared allow-list before anything goes into the page (what it
 * refuses it says why, naming the providers it takes); Enter embeds, Escape goes back to the text.
 */
function EmbedBox({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const submit = () => {
    const link = value.trim();
    if (!link) return setError('Paste the link to embed.');
    const check = checkEmbedUrl(link);
    if (!check.ok) return setError(sentence(check.reason));
    editor
      .chain()
      .focus()
      .insertContent({ type: 'embed', attrs: { src: check.src, provider: check.provider.id } })
      .run();
    onClose();
  };
  return (
    <form
      className="kb-link-box"
      aria-label="Embed"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <TextInput
        size="xs"
        w={360}
        maw="calc(100vw - 48px)"
        aria-label="Link to embed"
        placeholder="Paste a YouTube, Figma, Google Docs… link"
        value={value}
        error={error}
        data-autofocus
        autoFocus
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      {!error && (
        <Text size="xs" c="dimmed" mt={4} w={360} maw="calc(100vw - 48px)">
          From {ALLOWED_EMBED_PROVIDERS}.
        </Text>
      )}
      <Group gap="xs" mt={6} justify="flex-end">
        <Button size="compact-xs" variant="default" onClick={close}>
          Cancel
        </Button>
        <Button size="compact-xs" type="submit">
          Embed
        </Button>
      </Group>
    </form>
  );
}

/** The embed box under the caret, opened by the slash menu's "Embed"; it closes when the caret moves elsewhere. */
export function EmbedMenu({ editor }: { editor: Editor }) {
  const [at, setAt] = useState<number | null>(null);
  useEffect(() => {
    const bus = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
    const open = () => setAt(editor.state.selection.from);
    const moved = () => setAt((pos) => (pos !== null && editor.state.selection.from !== pos ? null : pos));
    bus.on(EMBED_BOX_EVENT, open);
    editor.on('selectionUpdate', moved);
    return () => {
      bus.off(EMBED_BOX_EVENT, open);
      editor.off('selectionUpdate', moved);
    };
  }, [editor]);
  const open = at !== null;
  // Stable while open or closed (the menu re-registers its options whenever this changes).
  const shouldShow = useCallback(({ editor: e }: { editor: Editor }) => open && e.isEditable, [open]);
  // The menu itself shows and hides only on a change of selection or document: opening (or closing) changes neither.
  const shown = useRef(false);
  useEffect(() => {
    if (editor.isDestroyed || open === shown.current) return;
    shown.current = open;
    const tell = (meta: string) => editor.view.dispatch(editor.state.tr.setMeta(MENU_KEY, meta));
    if (open) {
      tell('show');
      tell('updatePosition');
    } else tell('hide');
  }, [editor, open]);
  return (
    <BubbleMenu editor={editor} pluginKey={MENU_KEY} className="kb-menu" shouldShow={shouldShow} options={PLACEMENT}>
      <Paper shadow="md" withBorder p={4} radius="md">
        {open && <EmbedBox editor={editor} onClose={() => setAt(null)} />}
      </Paper>
    </BubbleMenu>
  );
}
