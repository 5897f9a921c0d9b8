import { checkLinkCardUrl, cleanLinkCardTitle } from '@editor/link-cards';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { api, data } from '../../../api/client';
import { openLink } from './links';

/**
 * A link card (`linkCard` of src/editor/link-cards.ts): the page's icon, title, description and host, read by the
 * server (`GET /api/v1/link-preview`, which fetches with the research address rules and caches), never by the browser
 * from the other site. A click opens the link in a new tab, which gets no handle on this one. Without a workspace
 * (the public share view) or when the server cannot read the page, the card shows what the page keeps: its title (if
 * one was read when the card was made) and the host.
 */

interface Preview {
  title: string | null;
  description: string | null;
  siteName: string | null;
  iconUrl: string | null;
}

/** Previews asked for in this tab, by workspace and link: a page of many cards, or a card redrawn, asks once. */
const previews = new Map<string, Promise<Preview | null>>();
const MAX_REMEMBERED = 200;

function previewOf(workspaceId: string, url: string): Promise<Preview | null> {
  const key = `${workspaceId} ${url}`;
  let known = previews.get(key);
  if (!known) {
    known = data(api.GET('/api/v1/link-preview', { params: { query: { url, workspaceId } } })).catch(() => null);
    previews.set(key, known);
    if (previews.size > MAX_REMEMBERED) previews.delete(previews.keys().next().value as string);
  }
  return known;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string) => {
  const e = document.createElement(tag);
  e.className = className;
  return e;
};

export function linkCardView(workspaceId: string | null) {
  return ({ node, editor, getPos }: NodeViewRendererProps) => {
    const dom = el('div', 'kb-link-card');
    dom.setAttribute('data-link-card', '');
    const anchor = el('a', 'kb-link-card-body');
    anchor.target = '_blank';
    anchor.rel = 'noopener noreferrer';
    const icon = el('img', 'kb-link-card-icon');
    icon.alt = '';
    icon.referrerPolicy = 'no-referrer';
    icon.loading = 'lazy';
    icon.addEventListener('error', () => icon.classList.add('kb-link-card-icon-missing'));
    const text = el('span', 'kb-link-card-text');
    const title = el('strong', 'kb-link-card-title');
    const description = el('span', 'kb-link-card-description');
    const host = el('span', 'kb-link-card-host');
    text.append(title, description, host);
    anchor.append(icon, text);
    dom.append(anchor);
    // Opens in a new tab even in an editable page, where a plain click on a link of the text only places the caret.
    anchor.addEventListener('click', (event) => {
      event.preventDefault();
      event.stopPropagation();
      const href = anchor.getAttribute('href');
      if (href) openLink(href);
    });

    let current = node;
    const show = (preview: Preview | null) => {
      const url = String(current.attrs.url ?? '');
      const check = checkLinkCardUrl(url);
      const hostName = check.ok ? check.host : url;
      anchor.href = check.ok ? url : '#';
      const known = preview?.title ?? current.attrs.title;
      title.textContent = known ?? hostName;
      description.textContent = preview?.description ?? '';
      description.hidden = !preview?.description;
      // Without a title the host is the card's title, and the line under it shows the whole link.
      if (!known) host.textContent = url;
      else host.textContent = preview?.siteName && preview.siteName !== hostName ? `${preview.siteName} · ${hostName}` : hostName;
      icon.classList.remove('kb-link-card-icon-missing');
      const iconUrl = preview?.iconUrl ?? (check.ok ? `${new URL(url).origin}/favicon.ico` : null);
      if (iconUrl) icon.src = iconUrl;
      else icon.classList.add('kb-link-card-icon-missing');
      dom.dataset.state = preview ? 'loaded' : 'plain';
    };
    /** Keeps the title read from the page in the document (for search and exports), once, by whoever can edit it. */
    const keepTitle = (url: string, preview: Preview | null) => {
      const found = cleanLinkCardTitle(preview?.title);
      if (!found || !editor.isEditable || current.attrs.title || current.attrs.url !== url || typeof getPos !== 'function') return;
      const pos = getPos();
      if (typeof pos !== 'number' || editor.state.doc.nodeAt(pos)?.attrs.url !== url) return;
      editor.view.dispatch(editor.state.tr.setNodeAttribute(pos, 'title', found).setMeta('addToHistory', false));
    };
    const paint = () => {
      const url = String(current.attrs.url ?? '');
      show(null);
      if (!workspaceId || !checkLinkCardUrl(url).ok) return;
      dom.dataset.state = 'loading';
      void previewOf(workspaceId, url).then((preview) => {
        if (current.attrs.url !== url || editor.isDestroyed) return;
        show(preview);
        keepTitle(url, preview);
      });
    };
    paint();
    return {
      dom,
      update(updated: PMNode) {
        if (updated.type !== current.type) return false;
        const changed = updated.attrs.url !== current.attrs.url;
        current = updated;
        if (changed) paint();
        else if (dom.dataset.state !== 'loaded') show(null);
        return true;
      },
      ignoreMutation: () => true,
    };
  };
}
