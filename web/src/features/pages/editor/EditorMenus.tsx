import { Button, Group, Menu, Paper, Text, TextInput, UnstyledButton } from '@mantine/core';
import {
  IconBold,
  IconChevronDown,
  IconCode,
  IconExternalLink,
  IconHighlight,
  IconItalic,
  IconLink,
  IconLinkOff,
  IconMessagePlus,
  IconPencil,
  IconStrikethrough,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { TextSelection } from '@tiptap/pm/state';
import { type Editor, useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { api, data } from '../../../api/client';
import { useSpaces } from '../../spaces/spaces.queries';
import { paths, useWorkspace } from '../../workspaces/workspace-context';
import { type CommentAnchor, selectionAnchor } from '../collab/comment-anchors';
import { slugOfTitle } from '../pages.queries';
import { EmbedMenu } from './EmbedBox';
import { LINK_BOX_EVENT, normalizeHref, openLink } from './links';
import { TextColourMenu } from './TextColourMenu';
import { MarkButton, toolbarKeys } from './toolbar';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = MAC ? '⌘' : 'Ctrl+';

/** What "Turn into" offers: each clears the blocks to paragraphs first, then makes them this. */
const TURN_INTO: { label: string; run: (editor: Editor) => void; active: (editor: Editor) => boolean }[] = [
  {
    label: 'Text',
    run: (e) => e.chain().focus().clearNodes().run(),
    active: (e) => e.isActive('paragraph') && !e.isActive('listItem') && !e.isActive('taskItem') && !e.isActive('blockquote'),
  },
  ...([1, 2, 3] as const).map((level) => ({
    label: `Heading ${level}`,
    run: (e: Editor) => e.chain().focus().clearNodes().setHeading({ level }).run(),
    active: (e: Editor) => e.isActive('heading', { level }),
  })),
  { label: 'Bulleted list', run: (e) => e.chain().focus().clearNodes().toggleBulletList().run(), active: (e) => e.isActive('bulletList') },
  { label: 'Numbered list', run: (e) => e.chain().focus().clearNodes().toggleOrderedList().run(), active: (e) => e.isActive('orderedList') },
  { label: 'Checklist', run: (e) => e.chain().focus().clearNodes().toggleTaskList().run(), active: (e) => e.isActive('taskList') },
  { label: 'Quote', run: (e) => e.chain().focus().clearNodes().setBlockquote().run(), active: (e) => e.isActive('blockquote') },
  { label: 'Code block', run: (e) => e.chain().focus().clearNodes().setCodeBlock().run(), active: (e) => e.isActive('codeBlock') },
];

/** Bold, italic, strike, code, highlight, text colour, link, comment and "Turn into", for the selected text. */
function SelectionToolbar({ editor, onLink, onComment }: { editor: Editor; onLink: () => void; onComment?: () => void }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      link: e.isActive('link'),
      highlight: e.isActive('highlight'),
      block: TURN_INTO.find((t) => t.active(e))?.label ?? 'Text',
    }),
  });
  return (
    <Group gap={2} wrap="nowrap" role="toolbar" aria-label="Format the selection" onKeyDown={toolbarKeys(editor)}>
      <Menu position="bottom-start" withinPortal={false} shadow="md">
        <Menu.Target>
          <UnstyledButton className="kb-turn-into" aria-label={`Turn into (now ${state.block})`} data-toolbar-item="" onMouseDown={(e) => e.preventDefault()}>
            <Group gap={4} wrap="nowrap">
              <Text size="sm">{state.block}</Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown aria-label="Turn into">
          {TURN_INTO.map((item) => (
            <Menu.Item key={item.label} onClick={() => item.run(editor)} fw={item.label === state.block ? 600 : undefined}>
              {item.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <MarkButton label="Bold" keys={`${MOD}B`} pressed={state.bold} onClick={() => editor.chain().focus().toggleBold().run()}>
        <IconBold size={16} aria-hidden />
      </MarkButton>
      <MarkButton label="Italic" keys={`${MOD}I`} pressed={state.italic} onClick={() => editor.chain().focus().toggleItalic().run()}>
        <IconItalic size={16} aria-hidden />
      </MarkButton>
      <MarkButton label="Strikethrough" keys={`${MOD}Shift+S`} pressed={state.strike} onClick={() => editor.chain().focus().toggleStrike().run()}>
        <IconStrikethrough size={16} aria-hidden />
      </MarkButton>
      <MarkButton label="Inline code" keys={`${MOD}E`} pressed={state.code} onClick={() => editor.chain().focus().toggleCode().run()}>
        <IconCode size={16} aria-hidden />
      </MarkButton>
      <MarkButton label="Highlight" keys={`${MOD}Shift+H`} pressed={state.highlight} onClick={() => editor.chain().focus().toggleHighlight().run()}>
        <IconHighlight size={16} aria-hidden />
      </MarkButton>
      <TextColourMenu editor={editor} />
      <MarkButton label="Link" keys={`${MOD}K`} pressed={state.link} onClick={onLink}>
        <IconLink size={16} aria-hidden />
      </MarkButton>
      {onComment && (
        <MarkButton label="Comment" pressed={false} onClick={onComment}>
          <IconMessagePlus size={16} aria-hidden />
        </MarkButton>
      )}
    </Group>
  );
}

interface PageHit {
  id: string;
  title: string;
  href: string;
}

/** Pages whose title or text matches, as links into the app (relative: they work on any host name). */
function usePageHits(query: string): PageHit[] {
  const workspace = useWorkspace();
  const spaces = useSpaces(workspace.id);
  const text = query.trim();
  const hits = useQuery({
    queryKey: ['link-box-pages', workspace.id, text],
    queryFn: async ({ signal }) =>
      (await data(api.GET('/api/v1/search', { params: { query: { workspaceId: workspace.id, query: text, types: 'page', limit: 6 } }, signal }))) as {
        type: string;
        id: string;
        title: string;
        spaceId: string | null;
      }[],
    enabled: text.length > 0 && normalizeHref(text) === null,
    staleTime: 10_000,
  });
  return (hits.data ?? []).flatMap((r) => {
    const space = spaces.data?.find((s) => s.id === r.spaceId);
    return r.type === 'page' && space
      ? [{ id: r.id, title: r.title || 'Untitled', href: paths.page(workspace.hostname, space.slug, { id: r.id, slug: slugOfTitle(r.title) }) }]
      : [];
  });
}

/** The link box: an address (typed or pasted), or a page found by name; Enter applies, Escape goes back to the text. */
function LinkBox({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = (editor.getAttributes('link').href as string | undefined) ?? '';
  const [value, setValue] = useState(current);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const hits = usePageHits(value);
  const listId = useId();
  const close = useCallback(() => {
    onClose();
    editor.commands.focus();
  }, [editor, onClose]);
  const apply = (href: string) => {
    const { to } = editor.state.selection;
    editor.chain().focus().extendMarkRange('link').setLink({ href }).setTextSelection(to).run();
    onClose();
  };
  const submit = () => {
    const href = normalizeHref(value);
    if (href) return apply(href);
    const hit = hits[active];
    if (hit) return apply(hit.href);
    setError(value.trim() ? 'Not a web address, and no page by that name' : 'Type a web address or a page’s name');
  };
  return (
    <form
      className="kb-link-box"
      aria-label="Link"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <TextInput
        size="xs"
        w={300}
        maw="calc(100vw - 48px)"
        aria-label="Link address or page"
        placeholder="Paste a link, or search pages"
        value={value}
        error={error}
        data-autofocus
        autoFocus
        role="combobox"
        aria-expanded={hits.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={hits[active] ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setActive(0);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && hits.length) {
            e.preventDefault();
            setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
          }
        }}
      />
      {hits.length > 0 && (
        <div role="listbox" id={listId} aria-label="Pages" className="kb-link-hits">
          {hits.map((hit, i) => (
            <div
              key={hit.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              tabIndex={-1}
              className="kb-link-hit"
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => apply(hit.href)}
              onKeyDown={(e) => e.key === 'Enter' && apply(hit.href)}
            >
              {hit.title}
            </div>
          ))}
        </div>
      )}
      <Group gap="xs" mt={6} justify="flex-end">
        {current && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="gray"
            onClick={() => {
              editor.chain().focus().extendMarkRange('link').unsetLink().run();
              onClose();
            }}
          >
            Remove link
          </Button>
        )}
        <Button size="compact-xs" variant="default" onClick={close}>
          Cancel
        </Button>
        <Button size="compact-xs" type="submit">
          {current ? 'Save link' : 'Add link'}
        </Button>
      </Group>
    </form>
  );
}

/** With the caret in a link: where it goes, and Open, Edit, Remove. */
function LinkPopover({ editor, onEdit }: { editor: Editor; onEdit: () => void }) {
  const href = useEditorState({ editor, selector: ({ editor: e }) => (e.isActive('link') ? ((e.getAttributes('link').href as string) ?? '') : '') });
  if (!href) return null;
  return (
    <Group gap={4} wrap="nowrap" role="toolbar" aria-label="Link" onKeyDown={toolbarKeys(editor)}>
      <Text size="xs" c="dimmed" maw={220} truncate="end" title={href} px={4}>
        {href}
      </Text>
      <Button
        size="compact-xs"
        variant="subtle"
        leftSection={<IconExternalLink size={14} aria-hidden />}
        data-toolbar-item=""
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => openLink(href)}
      >
        Open
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="gray"
        leftSection={<IconPencil size={14} aria-hidden />}
        data-toolbar-item=""
        onMouseDown={(e) => e.preventDefault()}
        onClick={onEdit}
      >
        Edit
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="gray"
        leftSection={<IconLinkOff size={14} aria-hidden />}
        data-toolbar-item=""
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => editor.chain().focus().extendMarkRange('link').unsetLink().run()}
      >
        Remove
      </Button>
    </Group>
  );
}

interface ShowProps {
  editor: Editor;
  state: import('@tiptap/pm/state').EditorState;
  from: number;
  to: number;
}
const TOOLBAR_PLACEMENT = { placement: 'top', offset: 8, flip: true, shift: { padding: 8 } } as const;
const POPOVER_PLACEMENT = { placement: 'bottom-start', offset: 6, flip: true, shift: { padding: 8 } } as const;

/**
 * The editor's floating menus: the selection toolbar (which becomes the link box on "Link" or Ctrl/Cmd-K), the
 * link popover with the caret in a link, and the embed box the slash menu's "Embed" opens. Alt+F10 in the text moves to whichever is showing (as in Google Docs).
 */
export function EditorMenus({ editor, onComment }: { editor: Editor; onComment?: (anchor: CommentAnchor) => void }) {
  const [linkBox, setLinkBox] = useState(false);
  // The menus' own elements (the editor's parent holds them, not this component's place in the tree).
  const toolbar = useRef<HTMLDivElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const openLinkBox = useCallback(() => {
    if (editor.state.selection.empty) editor.chain().extendMarkRange('link').run();
    if (!editor.state.selection.empty) setLinkBox(true);
  }, [editor]);
  useEffect(() => {
    const on = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
    on.on(LINK_BOX_EVENT, openLinkBox);
    // The link box closes when the selection it was for goes away.
    const collapse = () => editor.state.selection.empty && setLinkBox(false);
    editor.on('selectionUpdate', collapse);
    const keys = (event: globalThis.KeyboardEvent) => {
      if (event.altKey && event.key === 'F10') {
        event.preventDefault();
        for (const menu of [toolbar.current, popover.current])
          if (menu && menu.style.visibility !== 'hidden' && menu.isConnected) {
            const first = menu.querySelector<HTMLElement>('[data-toolbar-item]');
            if (first) {
              first.focus();
              return;
            }
          }
      }
    };
    editor.view.dom.addEventListener('keydown', keys);
    return () => {
      on.off(LINK_BOX_EVENT, openLinkBox);
      editor.off('selectionUpdate', collapse);
      editor.view.dom.removeEventListener('keydown', keys);
    };
  }, [editor, openLinkBox]);
  // Stable (the menu re-registers its options whenever these change).
  const showToolbar = useCallback(
    ({ editor: e, state, from, to }: ShowProps) =>
      // The menu's update is debounced: it can come after the editor is gone (the person left the page).
      !e.isDestroyed &&
      e.isEditable &&
      from !== to &&
      state.selection instanceof TextSelection &&
      !e.isActive('codeBlock') &&
      (linkBox || e.view.hasFocus() || toolbar.current?.contains(document.activeElement) === true),
    [linkBox],
  );
  const showPopover = useCallback(({ editor: e, state }: ShowProps) => e.isEditable && state.selection.empty && e.isActive('link') && !linkBox, [linkBox]);
  const comment = onComment
    ? () => {
        const anchor = selectionAnchor(editor);
        if (anchor) onComment(anchor);
      }
    : undefined;
  return (
    <>
      <BubbleMenu ref={toolbar} editor={editor} pluginKey="kbSelectionToolbar" className="kb-menu" shouldShow={showToolbar} options={TOOLBAR_PLACEMENT}>
        <Paper shadow="md" withBorder p={4} radius="md">
          {linkBox ? (
            <LinkBox editor={editor} onClose={() => setLinkBox(false)} />
          ) : (
            <SelectionToolbar editor={editor} onLink={openLinkBox} onComment={comment} />
          )}
        </Paper>
      </BubbleMenu>
      <BubbleMenu editor={editor} ref={popover} pluginKey="kbLinkPopover" className="kb-menu" shouldShow={showPopover} options={POPOVER_PLACEMENT}>
        <Paper shadow="md" withBorder p={4} radius="md">
          <LinkPopover editor={editor} onEdit={openLinkBox} />
        </Paper>
      </BubbleMenu>
      <EmbedMenu editor={editor} />
    </>
  );
}
