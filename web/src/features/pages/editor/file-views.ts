import { checkMediaUrl, humanSize } from '@editor/file-blocks';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import './file-blocks.css';

/**
 * How the editor (and the read-only share view) shows the blocks of `src/editor/file-blocks.ts`: a file as a card (a
 * badge with its extension, the name, the size and a download link), a video or audio with the browser's own player.
 * Players ask only for the file's length and first frame (`preload="metadata"`), so opening a page of recordings stays
 * fast. An address the schema would not take (content stored under other rules) shows as text, never as a link.
 */

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string) => {
  const e = document.createElement(tag);
  e.className = className;
  return e;
};

/** The extension of a file name as a short badge ("PDF", "TXT"), or "FILE". */
export function extensionBadge(name: string): string {
  const m = /\.([A-Za-z0-9]{1,5})$/.exec(name);
  return m ? m[1].toUpperCase() : 'FILE';
}

/** Leaves the events of a block's own control (the download link, the player) to it; the rest select the block. */
const ownEvents = (control: HTMLElement) => (event: Event) => control.contains(event.target as Node);

export function fileView({ node }: NodeViewRendererProps) {
  const dom = el('div', 'kb-file');
  dom.setAttribute('data-file', '');
  dom.contentEditable = 'false';
  const badge = el('span', 'kb-file-badge');
  badge.setAttribute('aria-hidden', 'true');
  const text = el('span', 'kb-file-text');
  const name = el('strong', 'kb-file-name');
  const meta = el('span', 'kb-file-meta');
  text.append(name, meta);
  const download = el('a', 'kb-file-download');
  download.textContent = 'Download';
  dom.append(badge, text, download);
  // The editor takes a plain click on a link to place the caret (links.ts); this one saves the file, in any mode.
  download.addEventListener('click', (event) => event.stopPropagation());

  let current = node;
  const paint = () => {
    const fileName = String(current.attrs.name ?? 'file');
    const check = checkMediaUrl(current.attrs.url);
    badge.textContent = extensionBadge(fileName);
    name.textContent = fileName;
    meta.textContent = [humanSize(current.attrs.size), current.attrs.mime].filter(Boolean).join(' · ');
    meta.hidden = !meta.textContent;
    download.hidden = !check.ok;
    if (check.ok) {
      download.href = check.url;
      download.download = fileName;
      download.setAttribute('aria-label', `Download ${fileName}`);
    }
  };
  paint();
  return {
    dom,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      current = updated;
      paint();
      return true;
    },
    stopEvent: ownEvents(download),
    ignoreMutation: () => true,
  };
}

export function mediaView(tag: 'video' | 'audio') {
  return ({ node }: NodeViewRendererProps) => {
    const dom = el('figure', `kb-media kb-media-${tag}`);
    dom.setAttribute(`data-${tag}`, '');
    dom.contentEditable = 'false';
    const player = document.createElement(tag);
    player.controls = true;
    player.preload = 'metadata';
    const caption = el('figcaption', 'kb-media-caption');
    dom.append(player, caption);

    let current = node;
    const paint = () => {
      const check = checkMediaUrl(current.attrs.src);
      const title = (current.attrs.title as string | null) ?? '';
      if (check.ok && player.getAttribute('src') !== check.url) player.src = check.url;
      if (!check.ok) player.removeAttribute('src');
      player.setAttribute('aria-label', title || (tag === 'video' ? 'Video' : 'Audio'));
      caption.textContent = title || (check.ok ? '' : String(current.attrs.src ?? ''));
      caption.hidden = !caption.textContent;
    };
    paint();
    return {
      dom,
      update(updated: PMNode) {
        if (updated.type !== current.type) return false;
        current = updated;
        paint();
        return true;
      },
      stopEvent: ownEvents(player),
      ignoreMutation: () => true,
    };
  };
}
