import { Node } from '@tiptap/core';
import type { DOMOutputSpec } from '@tiptap/pm/model';

/**
 * Live blocks: atoms that keep no content of their own and show what the page has when it is read, so they never go
 * stale. They hold no attributes (any given is refused as unknown) and no text for search.
 * - `subpages`: the page's child pages (titles with icons, links that open them), from the page tree;
 *   Markdown `::subpages` on a line of its own, HTML `<nav data-type="subpages" class="subpages">`;
 * - `tableOfContents`: the page's h1–h3 headings, read from the document as it is edited (a click scrolls to one);
 *   Markdown `::toc` on a line of its own, HTML `<nav data-type="toc" class="toc">` holding a list of links to the
 *   headings (filled in by documentToHtml, html-contents.ts).
 * Both are leaf directives of the generic directives proposal, as `::embed[…]` and `::link[…]` are (markdown-blocks.ts).
 * The subpages block's HTML is a placeholder naming what stood there (the share reader lists the page's children below
 * the page itself).
 */

export interface LiveBlock {
  /** The node's name in the schema. */
  name: string;
  /** The leaf directive's name in Markdown (`::<directive>`). */
  directive: string;
  /** `data-type` of its `<nav>` in HTML. */
  htmlType: string;
  /** What the placeholder says in HTML. */
  label: string;
}

export const SUBPAGES: LiveBlock = { name: 'subpages', directive: 'subpages', htmlType: 'subpages', label: 'Subpages' };
export const TABLE_OF_CONTENTS: LiveBlock = { name: 'tableOfContents', directive: 'toc', htmlType: 'toc', label: 'Table of contents' };
export const LIVE_BLOCKS = [SUBPAGES, TABLE_OF_CONTENTS] as const;

/** Whether nodes of this type are live blocks (they hold nothing of their own to read, index or embed). */
export function isLiveBlock(typeName: string): boolean {
  return LIVE_BLOCKS.some((b) => b.name === typeName);
}

/** A live block's HTML placeholder. */
export function liveBlockHtml(block: LiveBlock): DOMOutputSpec {
  return ['nav', { 'data-type': block.htmlType, class: block.htmlType, 'aria-label': block.label }, block.label];
}

function liveBlockNode(block: LiveBlock) {
  return Node.create({
    name: block.name,
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    parseHTML() {
      return [{ tag: `nav[data-type="${block.htmlType}"]` }];
    },
    renderHTML() {
      return liveBlockHtml(block);
    },
  });
}

export const Subpages = liveBlockNode(SUBPAGES);
export const TableOfContents = liveBlockNode(TABLE_OF_CONTENTS);
