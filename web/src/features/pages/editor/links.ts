import { isAllowedLinkUrl } from '@editor/urls';
import { type Editor, Extension, InputRule } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/** The editor event that asks the menus (EditorMenus.tsx) for the link box: Ctrl/Cmd-K on a selection or in a link. */
export const LINK_BOX_EVENT = 'kbLinkBox';

/** Asks for the link box (the editor's own event bus: the menus listen on it). */
export function requestLinkBox(editor: Editor) {
  (editor as unknown as { emit(event: string): void }).emit(LINK_BOX_EVENT);
}

/** The link under a pointer event inside the editor, or null. */
function linkAt(view: EditorView, event: MouseEvent): string | null {
  const target = event.target as HTMLElement | null;
  const anchor = target?.closest?.('a[href]');
  if (!anchor || !view.dom.contains(anchor)) return null;
  const href = anchor.getAttribute('href') ?? '';
  return href && isAllowedLinkUrl(href) ? href : null;
}

/** Opens a link of the page in a new tab, which gets no handle on this one. */
export function openLink(href: string) {
  window.open(href, '_blank', 'noopener,noreferrer');
}

/** Whether the URL the person typed or pasted may be a link: the shared schema's rule (http, https, mailto, relative). */
export const isLinkable = (url: string) => url.trim() !== '' && isAllowedLinkUrl(url.trim());

/**
 * What the person typed as a link address: a URL with a scheme, a path (`/…`, `#…`), an email address (`mailto:`)
 * or a host name with a dot (`example.com/a`, given `https://`). null for anything else (a page's name, say) and for
 * what the shared schema refuses (`javascript:`).
 */
export function normalizeHref(input: string): string | null {
  const url = input.trim();
  if (!url || /\s/.test(url)) return null;
  let href: string | null = null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^[^:/]+\.[^:/]+:\d/.test(url)) href = url;
  else if (/^[/#?]/.test(url)) href = url;
  else if (/^[^@/]+@[^@/]+\.[a-z]{2,}$/i.test(url)) href = `mailto:${url}`;
  else if (/^[^/.]+(\.[^/.]+)+(?::\d+)?(\/.*)?$/.test(url)) href = `https://${url}`;
  return href && isLinkable(href) ? href : null;
}

/** `[text](url)` typed: the text becomes a link (an image's `![…](…)` and an escaped `\[` are left alone). */
const TYPED_LINK = /(?:^|[^!\\])(\[([^\]\n]+)\]\(([^()\s]+)\))$/;

/**
 * Links as people use them in the page editor:
 * - a click on a link opens it (in a new tab) for a reader; an editor opens it with Ctrl/Cmd-click or a middle
 *   click (a plain click puts the caret in it, where the link popover offers Open, Edit and Remove);
 * - Ctrl/Cmd-K on a selection, or with the caret in a link, asks for the link box instead of the search palette
 *   (which Ctrl/Cmd-K opens everywhere else: the key goes no further than the editor only then);
 * - `[text](url)` typed becomes a link.
 */
export const LinkHandling = Extension.create({
  name: 'kbLinkHandling',
  addInputRules() {
    return [
      new InputRule({
        find: TYPED_LINK,
        handler: ({ state, range, match }) => {
          const href = normalizeHref(match[3]);
          const linkType = state.schema.marks.link;
          if (!href || !linkType || state.doc.resolve(range.from).parent.type.spec.code) return null;
          const start = range.from + match[0].indexOf(match[1]);
          const text = match[2];
          const tr = state.tr.insertText(text, start, range.to);
          tr.addMark(start, start + text.length, linkType.create({ href }));
          tr.removeStoredMark(linkType);
        },
      }),
    ];
  },
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        key: new PluginKey('kbLinkHandling'),
        props: {
          handleKeyDown(view, event) {
            if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'k' || !view.editable) return false;
            if (view.state.selection.empty && !editor.isActive('link')) return false; // the search palette's
            event.preventDefault();
            event.stopPropagation();
            requestLinkBox(editor);
            return true;
          },
          handleDOMEvents: {
            // A middle press on a link would paste (Linux) or start auto-scrolling: the link opens on its release instead.
            mousedown(view, event) {
              if (event.button !== 1 || !linkAt(view, event)) return false;
              event.preventDefault();
              return true;
            },
            auxclick(view, event) {
              const href = event.button === 1 ? linkAt(view, event) : null;
              if (!href) return false;
              event.preventDefault();
              openLink(href);
              return true;
            },
            click(view, event) {
              if (event.button !== 0) return false;
              const href = linkAt(view, event);
              if (!href) return false;
              if (view.editable && !(event.ctrlKey || event.metaKey)) {
                event.preventDefault(); // never navigates the editing tab away
                return false;
              }
              event.preventDefault();
              openLink(href);
              return true;
            },
          },
        },
      }),
    ];
  },
});
