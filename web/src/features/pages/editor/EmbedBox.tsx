import { ALLOWED_EMBED_PROVIDERS, checkEmbedUrl } from '@editor/embeds';
import { checkLinkCardUrl } from '@editor/link-cards';
import { Button, Group, Text, TextInput } from '@mantine/core';
import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { CaretMenu } from './CaretMenu';
import { EMBED_BOX_EVENT } from './slash-menu';

/** A refusal of the shared allow-list (embeds.ts), as a sentence. */
const sentence = (reason: string) => `${reason[0].toUpperCase()}${reason.slice(1)}.`;

/** What the box opens for: an embed (from the slash menu's "Embed") or a link card ("Link card"). */
export type EmbedBoxMode = 'embed' | 'card';

/**
 * The embed box: the link to embed, checked by the shared allow-list before anything goes into the page. A link the
 * list does not frame but a card takes (any other http(s) page) is offered as a link card instead of refused; what
 * neither takes it says why. Enter embeds (or makes the card), Escape goes back to the text. Opened as "Link card",
 * it makes a card of any link a card takes, allow-listed or not.
 */
function EmbedBox({ editor, mode, onClose }: { editor: Editor; mode: EmbedBoxMode; onClose: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The link the allow-list refused but a card takes: the box then offers the card. */
  const [cardFor, setCardFor] = useState<string | null>(null);
  const insertCard = (url: string) => {
    editor
      .chain()
      .focus()
      .insertContent({ type: 'linkCard', attrs: { url, title: null } })
      .run();
    onClose();
  };
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const submit = () => {
    const link = value.trim();
    if (!link) return setError(mode === 'card' ? 'Paste the link to show as a card.' : 'Paste the link to embed.');
    const card = checkLinkCardUrl(link);
    if (mode === 'card' || cardFor === link) return card.ok ? insertCard(card.url) : setError(sentence(card.reason));
    const check = checkEmbedUrl(link);
    if (!check.ok) {
      if (card.ok) return setCardFor(card.url);
      return setError(sentence(check.reason));
    }
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
      aria-label={mode === 'card' ? 'Link card' : 'Embed'}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <TextInput
        size="xs"
        w={360}
        maw="calc(100vw - 48px)"
        aria-label={mode === 'card' ? 'Link for the card' : 'Link to embed'}
        placeholder={mode === 'card' ? 'Paste a link to any web page' : 'Paste a YouTube, Figma, Google Docs… link'}
        value={value}
        error={error}
        data-autofocus
        autoFocus
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setError(null);
          setCardFor(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
      />
      {!error && (
        <Text size="xs" c="dimmed" mt={4} w={360} maw="calc(100vw - 48px)" data-testid="embed-box-hint">
          {cardFor
            ? 'This site cannot be embedded. Add it as a link card, with its title and icon?'
            : mode === 'card'
              ? 'Shown as a card with the page’s title and icon.'
              : `From ${ALLOWED_EMBED_PROVIDERS}; any other link becomes a link card.`}
        </Text>
      )}
      <Group gap="xs" mt={6} justify="flex-end">
        <Button size="compact-xs" variant="default" onClick={close}>
          Cancel
        </Button>
        <Button size="compact-xs" type="submit">
          {mode === 'card' || cardFor ? 'Add link card' : 'Embed'}
        </Button>
      </Group>
    </form>
  );
}

/** The embed box under the caret, opened by the slash menu's "Embed" (or "Link card"). */
export function EmbedMenu({ editor }: { editor: Editor }) {
  return (
    <CaretMenu editor={editor} event={EMBED_BOX_EVENT} menuKey="kbEmbedBox">
      {(mode, close) => <EmbedBox key={mode} editor={editor} mode={mode === 'card' ? 'card' : 'embed'} onClose={close} />}
    </CaretMenu>
  );
}
