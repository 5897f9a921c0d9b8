import { mergeAttributes, Node } from '@tiptap/core';
import type { DOMOutputSpec } from '@tiptap/pm/model';
import { columnExtensions } from './columns.js';
import { checkEmbedUrl, EMBED_ALLOW, EMBED_PROVIDER_IDS, EMBED_REFERRER_POLICY, EMBED_SANDBOX, embedProvider } from './embeds.js';
import { fileBlockExtensions } from './file-blocks.js';
import { LinkCard } from './link-cards.js';
import { Subpages, TableOfContents } from './live-blocks.js';

/**
 * Blocks beyond CommonMark, as Tiptap nodes of the shared schema (server validation, web editor, co-editing):
 * - `callout`: a coloured box of blocks (`type` info / note / success / warning / danger, optional emoji `icon`);
 *   Markdown `:::info 💡` … `:::` (Outline's and Docmost's form), HTML `<aside class="callout callout-info">`;
 * - `details` (a toggle) = `detailsSummary` (one line of inline content) + `detailsContent` (blocks); Markdown and
 *   HTML `<details><summary>…</summary>…</details>`; whether it is open is the viewer's, never stored in the page;
 * - `mathInline` / `mathBlock`: TeX source kept as the `latex` attribute (rendered with KaTeX by the browser);
 *   Markdown `$…$` and `$$…$$`; at most MAX_MATH characters.
 * - `embed`: a page of another site in a frame (a video, a design, a document), from the allow-list of embeds.ts;
 *   `src` is the link as given (https, at most 2,048 characters), `provider` is derived from it (filled in when left
 *   out, refused when it disagrees: validate.ts); Markdown `::embed[<link>]` on a line of its own; HTML a
 *   `<figure data-embed>` holding the frame and a plain link to the source.
 * - `linkCard`: any other http(s) link shown as a card (link-cards.ts); Markdown `::link[<link>]`, HTML a plain `<a>`.
 * - `fileAttachment`, `video`, `audio`: a file to download, a video or audio with the browser's player (file-blocks.ts);
 *   Markdown `::file[name](url){size=… type=…}`, `::video[title](url)`, `::audio[title](url)`.
 * - `subpages` and `tableOfContents`: live lists of the page's children and headings (live-blocks.ts); Markdown
 *   `::subpages` and `::toc`, HTML a `<nav data-type>` placeholder.
 * - `columns` of two or three `column`s, blocks side by side (columns.ts); Markdown `::::columns` / `:::column`.
 * A Mermaid diagram is a code block whose language is `mermaid` (no node of its own).
 */

export const CALLOUT_TYPES = ['info', 'note', 'success', 'warning', 'danger'] as const;
export type CalloutType = (typeof CALLOUT_TYPES)[number];
/** Longest TeX source of one formula. */
export const MAX_MATH = 10_000;
/** An icon is a short run of characters (an emoji, maybe with modifiers), no markup or spaces. */
const ICON = /^[^\s<>"'&`\\]{1,16}$/u;

function fail(message: string): never {
  throw new RangeError(message);
}

const calloutType = (v: unknown) => {
  if (!CALLOUT_TYPES.includes(v as CalloutType)) fail(`must be one of ${CALLOUT_TYPES.map((t) => JSON.stringify(t)).join(', ')}`);
};
const calloutIcon = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'string' || !ICON.test(v)) fail('must be null or a short emoji without spaces or markup');
};
const latex = (v: unknown) => {
  if (typeof v !== 'string') fail('must be a string');
  if (v.length > MAX_MATH) fail(`must be at most ${MAX_MATH} characters (a formula that long is refused)`);
};

/** Reads a callout type written in another tool's words (Obsidian/GitHub alerts, Confluence macros). */
export function calloutTypeOf(word: string | null | undefined): CalloutType {
  const w = (word ?? '').toLowerCase();
  if ((CALLOUT_TYPES as readonly string[]).includes(w)) return w as CalloutType;
  if (['tip', 'hint', 'success', 'check', 'done', 'important'].includes(w)) return 'success';
  if (['warning', 'caution', 'attention', 'warn', 'note-warning'].includes(w)) return 'warning';
  if (['danger', 'error', 'bug', 'failure', 'fail', 'missing'].includes(w)) return 'danger';
  if (['note', 'abstract', 'summary', 'tldr', 'quote', 'cite', 'example', 'todo'].includes(w)) return 'note';
  return 'info';
}

export const Callout = Node.create({
  name: 'callout',
  group: 'block',
  content: 'block+',
  defining: true,
  addAttributes() {
    return {
      type: {
        default: 'info',
        validate: calloutType,
        parseHTML: (el: HTMLElement) => calloutTypeOf(el.getAttribute('data-callout')),
        renderHTML: () => ({}),
      },
      icon: {
        default: null,
        validate: calloutIcon,
        parseHTML: (el: HTMLElement) => {
          const icon = el.getAttribute('data-icon');
          return icon && ICON.test(icon) ? icon : null;
        },
        renderHTML: () => ({}),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'aside[data-callout]' }];
  },
  renderHTML({ node, HTMLAttributes }) {
    const { type, icon } = node.attrs;
    return ['aside', mergeAttributes(HTMLAttributes, { class: `callout callout-${type}`, 'data-callout': type, ...(icon ? { 'data-icon': icon } : {}) }), 0];
  },
});

export const Details = Node.create({
  name: 'details',
  group: 'block',
  content: 'detailsSummary detailsContent',
  defining: true,
  isolating: true,
  parseHTML() {
    return [{ tag: 'details' }];
  },
  renderHTML({ HTMLAttributes }) {
    return ['details', mergeAttributes(HTMLAttributes, { class: 'toggle' }), 0];
  },
});

export const DetailsSummary = Node.create({
  name: 'detailsSummary',
  content: 'text*',
  marks: '_',
  defining: true,
  isolating: true,
  parseHTML() {
    return [{ tag: 'summary' }];
  },
  renderHTML() {
    return ['summary', 0];
  },
});

export const DetailsContent = Node.create({
  name: 'detailsContent',
  content: 'block+',
  defining: true,
  parseHTML() {
    return [{ tag: 'div[data-details-content]' }];
  },
  renderHTML() {
    return ['div', { 'data-details-content': '' }, 0];
  },
});

const latexAttr = {
  latex: {
    default: '',
    validate: latex,
    parseHTML: (el: HTMLElement) => el.getAttribute('data-latex') ?? el.textContent ?? '',
    renderHTML: () => ({}),
  },
};

export const MathInline = Node.create({
  name: 'mathInline',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => latexAttr,
  parseHTML() {
    return [{ tag: 'span[data-math="inline"]' }];
  },
  renderHTML({ node }) {
    return ['span', { 'data-math': 'inline', class: 'math math-inline' }, node.attrs.latex];
  },
});

export const MathBlock = Node.create({
  name: 'mathBlock',
  group: 'block',
  atom: true,
  selectable: true,
  addAttributes: () => latexAttr,
  parseHTML() {
    return [{ tag: 'div[data-math="block"]' }];
  },
  renderHTML({ node }) {
    return ['div', { 'data-math': 'block', class: 'math math-block' }, node.attrs.latex];
  },
});

const embedSrc = (v: unknown) => {
  const check = checkEmbedUrl(v);
  if (!check.ok) fail(check.reason);
};
const embedProviderId = (v: unknown) => {
  if (v !== null && !EMBED_PROVIDER_IDS.includes(v as never))
    fail(`must be null (derived from src) or one of ${EMBED_PROVIDER_IDS.map((id) => JSON.stringify(id)).join(', ')}`);
};

/** The link an embed's HTML names: a figure's `data-src`, else its link, else its frame (or a bare frame's own `src`). */
export function embedSourceOf(el: HTMLElement): string | null {
  if (el.tagName.toUpperCase() === 'IFRAME') return el.getAttribute('src');
  return el.getAttribute('data-src') ?? el.querySelector('a[href]')?.getAttribute('href') ?? el.querySelector('iframe[src]')?.getAttribute('src') ?? null;
}

/** An embed read from HTML, or false (not this rule: the element's content is read as usual, its link kept). */
const embedFromHtml = (el: HTMLElement) => {
  const check = checkEmbedUrl(embedSourceOf(el));
  return check.ok ? { src: check.src, provider: check.provider.id } : false;
};

/**
 * An embed's HTML: the frame and a plain link to the source (what a reader without frames, or the public share page,
 * uses). Built from `src` again each time, so the frame's address is always one the allow-list makes; a stored link the
 * list no longer takes keeps only its link.
 */
export function embedHtml(src: string): DOMOutputSpec {
  const check = checkEmbedUrl(src);
  if (!check.ok) return ['figure', { 'data-embed': '', 'data-src': src, class: 'embed' }, ['figcaption', ['a', { href: src }, src]]];
  const { provider, frameUrl } = check;
  const [width, height] = provider.size;
  return [
    'figure',
    { 'data-embed': provider.id, 'data-src': src, class: 'embed' },
    [
      'iframe',
      {
        src: frameUrl,
        loading: 'lazy',
        sandbox: EMBED_SANDBOX,
        allow: EMBED_ALLOW,
        referrerpolicy: EMBED_REFERRER_POLICY,
        title: `${provider.name} embed`,
        width: String(width),
        height: String(height),
      },
    ],
    ['figcaption', `${provider.name}: `, ['a', { href: src }, src]],
  ];
}

export const Embed = Node.create({
  name: 'embed',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      src: { default: null, validate: embedSrc, parseHTML: (el: HTMLElement) => embedSourceOf(el), renderHTML: () => ({}) },
      provider: {
        default: null,
        validate: embedProviderId,
        parseHTML: (el: HTMLElement) => {
          const check = checkEmbedUrl(embedSourceOf(el));
          return check.ok ? check.provider.id : null;
        },
        renderHTML: () => ({}),
      },
    };
  },
  parseHTML() {
    // A frame another tool wrote (a pasted embed code, an import) is an embed too when the list allows its address.
    return [
      { tag: 'figure[data-embed]', getAttrs: embedFromHtml },
      { tag: 'iframe[src]', getAttrs: embedFromHtml },
    ];
  },
  renderHTML({ node }) {
    return embedHtml(String(node.attrs.src ?? ''));
  },
});

/** The name of an embed's provider, from its link (or its stored `provider` when the link no longer reads). */
export function embedProviderName(attrs: { src?: unknown; provider?: unknown }): string {
  const check = checkEmbedUrl(attrs.src);
  return check.ok ? check.provider.name : (embedProvider(attrs.provider)?.name ?? 'Embed');
}

export const blockExtensions = [
  Callout,
  Details,
  DetailsSummary,
  DetailsContent,
  MathInline,
  MathBlock,
  Embed,
  LinkCard,
  Subpages,
  TableOfContents,
  ...fileBlockExtensions,
  ...columnExtensions,
];
