import { type AnyExtension, mergeAttributes } from '@tiptap/core';
import { DOMSerializer, type Node as PMNode } from '@tiptap/pm/model';
import { watchPageTitle } from './page-titles';

/** A page mention's id is `page:<page id>` (mentions.ts); a person's is their user id. */
export const PAGE_MENTION_PREFIX = 'page:';

/** The page a mention element names, or null for a person (or anything else). */
export function pageMentionOf(target: EventTarget | null): { pageId: string; element: HTMLElement } | null {
  const element = target instanceof Element ? target.closest<HTMLElement>('[data-type="mention"].kb-mention-link') : null;
  const id = element?.getAttribute('data-id') ?? '';
  return element && id.startsWith(PAGE_MENTION_PREFIX) ? { pageId: id.slice(PAGE_MENTION_PREFIX.length), element } : null;
}

/**
 * The shared `mention` node rendered as a chip: a person as "@Ada", a page as its title with a page mark, both with
 * a class the stylesheet styles (`kb-mention`, and `kb-mention-page` for pages). Only the rendering option changes,
 * so the node, its attributes and its parse rule (`span[data-type="mention"]`, copy and paste) stay the shared
 * schema's. `reading`: the view is read-only, so a page mention is a link a keyboard reaches (Enter opens it);
 * in the editor it opens with Ctrl/Cmd-click, which the tooltip says. `linkable`: which pages have an address here
 * (every page in the app; in a public share, the pages it shares); the others are chips of text.
 */
export function withMentionChips(ext: AnyExtension, opts: { reading: boolean; linkable?: (pageId: string) => boolean; workspaceId?: string }): AnyExtension {
  const chips = ext.configure({
    renderHTML({ options, node }: { options: { HTMLAttributes: Record<string, unknown> }; node: PMNode }) {
      const id = String(node.attrs.id ?? '');
      const label = String(node.attrs.label ?? id);
      if (!id.startsWith(PAGE_MENTION_PREFIX)) return ['span', mergeAttributes(options.HTMLAttributes, { class: 'kb-mention kb-mention-person' }), `@${label}`];
      if (opts.linkable && !opts.linkable(id.slice(PAGE_MENTION_PREFIX.length)))
        return ['span', mergeAttributes(options.HTMLAttributes, { class: 'kb-mention kb-mention-page' }), label];
      const link = opts.reading ? { role: 'link', tabindex: '0', title: `Open “${label}”` } : { title: `“${label}”: Ctrl-click (⌘-click on a Mac) to open` };
      return ['span', mergeAttributes(options.HTMLAttributes, { class: 'kb-mention kb-mention-page kb-mention-link' }, link), label];
    },
  });
  return opts.workspaceId ? withLiveTitles(chips, opts.workspaceId) : chips;
}

/**
 * Page mentions show the page's title as it is now (`page-titles.ts`), not the label stored when the mention was made:
 * a renamed page reads under its new name wherever it is mentioned, and opens wherever it has moved (links open by id).
 * The chip is the node's own rendering with the current title as its label, so copy and paste still carry the stored
 * node. People keep the rendering as stored.
 */
function withLiveTitles(ext: AnyExtension, workspaceId: string): AnyExtension {
  return ext.extend({
    addNodeView() {
      return ({ node }: { node: PMNode }) => {
        const render = (n: PMNode) => DOMSerializer.renderSpec(document, n.type.spec.toDOM!(n)).dom as HTMLElement;
        const dom = render(node);
        const id = String(node.attrs.id ?? '');
        if (!id.startsWith(PAGE_MENTION_PREFIX)) return { dom };
        const stop = watchPageTitle(workspaceId, id.slice(PAGE_MENTION_PREFIX.length), (page) => {
          const current = page.title || 'Untitled';
          if (dom.textContent === current) return;
          const fresh = render(node.type.create({ ...node.attrs, label: current }));
          dom.replaceChildren(...fresh.childNodes);
          for (const name of ['title', 'data-label']) {
            const value = fresh.getAttribute(name);
            if (value === null) dom.removeAttribute(name);
            else dom.setAttribute(name, value);
          }
        });
        return { dom, destroy: stop, ignoreMutation: (m: { type: string }) => m.type !== 'selection' };
      };
    },
  });
}

/** Whether a click on a page mention opens it: any click when reading, Ctrl/Cmd-click (or a middle click) when editing. */
export function opensMention(event: { ctrlKey: boolean; metaKey: boolean; button: number }, editable: boolean): boolean {
  return !editable || event.ctrlKey || event.metaKey || event.button === 1;
}

/** Whether the page should open in another tab (Ctrl/Cmd or middle click while reading; middle click while editing). */
export function inNewTab(event: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; button: number }, editable: boolean): boolean {
  return event.button === 1 || event.shiftKey || (!editable && (event.ctrlKey || event.metaKey));
}
