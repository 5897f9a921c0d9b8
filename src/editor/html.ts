import { DOMSerializer, DOMParser as PMDOMParser } from '@tiptap/pm/model';
import { Window } from 'happy-dom';
import { embedSourceOf } from './blocks.js';
import { checkEmbedUrl } from './embeds.js';
import { checkMediaUrl, mediaSourceOf } from './file-blocks.js';
import { footnotesFromHtml, footnotesToHtml } from './footnotes-html.js';
import { tablesOfContents } from './html-contents.js';
import { schema, storedSchema } from './schema.js';
import { isAllowedImageUrl, isAllowedLinkUrl } from './urls.js';
import { type DocJson, readDocument } from './validate.js';

/**
 * HTML → a document of the shared schema, through ProseMirror's own DOM parser (the parse rules the Tiptap
 * extensions declare, as `@tiptap/html`'s `generateJSON` does) over a happy-dom document with scripts, styles and
 * frames never loaded. What the schema cannot hold is reported, never dropped in silence: each kind of element
 * that carries content the parser would discard (a video, a frame, a form…) is named once in `dropped`, and a link or
 * image whose URL is not allowed keeps its text (or alt text) and is named too. A frame is an `embed` when the
 * allow-list (embeds.ts) takes its address, or its figure's link (kb's own `<figure data-embed>`); any other is dropped
 * and named. A `<video>` or `<audio>` playing an http(s) address (or an attachment of this service) is a `video` or
 * `audio` block (file-blocks.ts); any other is dropped and named. And back: `documentToHtml`, the HTML form of a document that exports and the public reader share.
 */

/** happy-dom as a parser only: no script runs, nothing is fetched, no layout is computed. */
export const HAPPY_DOM_SETTINGS = {
  disableJavaScriptEvaluation: true,
  disableJavaScriptFileLoading: true,
  disableCSSFileLoading: true,
  disableIframePageLoading: true,
  disableComputedStyleRendering: true,
};

/** Elements whose content no node of the schema holds. Scripts, styles and `<head>` carry no page text: removed quietly. */
const UNSUPPORTED = [
  'iframe',
  'video',
  'audio',
  'object',
  'embed',
  'canvas',
  'svg',
  'math',
  'form',
  'select',
  'textarea',
  'button',
  'input:not([type=checkbox])',
];
const QUIET = ['script', 'style', 'noscript', 'template', 'link', 'meta', 'title'];

let parser: PMDOMParser | undefined;

export interface HtmlConversion {
  doc: DocJson;
  /** What could not be carried over, one line per kind of loss. */
  dropped: string[];
}

/** Runs `fn` over a fresh, inert happy-dom window holding `html`, and closes the window after. */
export function withHtmlDocument<T>(html: string, fn: (document: Document) => T): T {
  const window = new Window({ settings: HAPPY_DOM_SETTINGS });
  try {
    window.document.write(html);
    return fn(window.document as unknown as Document);
  } finally {
    window.happyDOM.abort();
    void window.happyDOM.close();
  }
}

export interface HtmlOptions {
  /**
   * Keep runs of spaces as written (newlines become spaces) rather than collapse them as a browser shows them: for
   * HTML that kb wrote itself, whose text is the document's text exactly (`"  hi  "` in code, two spaces in a sentence).
   */
  preserveWhitespace?: boolean;
}

/** A frame the `embed` node reads (itself, or the kb figure around it, names an allowed link). */
function isEmbedFrame(el: Element): boolean {
  if (el.tagName.toUpperCase() !== 'IFRAME') return false;
  const holder = (el.closest('figure[data-embed]') ?? el) as HTMLElement;
  return checkEmbedUrl(embedSourceOf(holder)).ok;
}

/** A `<video>` or `<audio>` the `video` and `audio` nodes read (its address is one they take). */
function isPlayableMedia(el: Element): boolean {
  const tag = el.tagName.toUpperCase();
  return (tag === 'VIDEO' || tag === 'AUDIO') && checkMediaUrl(mediaSourceOf(el)).ok;
}

/** Converts the element `root` (a document's body, or a part of it a source picked) to a document. */
export function elementToDocument(root: Element, options: HtmlOptions = {}): HtmlConversion {
  const dropped = new Set<string>();
  for (const el of root.querySelectorAll(QUIET.join(','))) el.remove();
  for (const lost of footnotesFromHtml(root)) dropped.add(lost);
  for (const el of root.querySelectorAll(UNSUPPORTED.join(','))) {
    if (isEmbedFrame(el) || isPlayableMedia(el)) continue;
    dropped.add(`<${el.tagName.toLowerCase()}> is not supported; dropped`);
    el.remove();
  }
  for (const a of root.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    if (!isAllowedLinkUrl(href)) {
      dropped.add(`a link to a ${href.split(':')[0]}: address is not allowed; its text was kept`);
      a.removeAttribute('href');
    }
  }
  for (const img of root.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (!src || !isAllowedImageUrl(src)) {
      dropped.add(src ? `an image from a ${src.split(':')[0]}: address is not allowed; its alt text was kept` : 'an image without a source was dropped');
      img.replaceWith(root.ownerDocument.createTextNode(img.getAttribute('alt') ?? ''));
    }
  }
  parser ??= PMDOMParser.fromSchema(schema);
  const doc = parser.parse(root as unknown as Node, { preserveWhitespace: options.preserveWhitespace ?? false }).toJSON() as DocJson;
  return { doc, dropped: [...dropped] };
}

/** A whole HTML file (or fragment) as a document, from its `<body>`. */
export function htmlToDocument(html: string, options: HtmlOptions = {}): HtmlConversion {
  return withHtmlDocument(html, (document) => elementToDocument(document.body, options));
}

let serializer: DOMSerializer | undefined;

/**
 * A document as HTML, by ProseMirror's DOM serializer of the shared schema (each node's `renderHTML`), which is what
 * `@tiptap/html`'s `generateHTML` does. Into `into` when given (a caller that post-processes the elements), and with
 * `document` when given (a caller converting many documents makes one happy-dom window for all: about ten times faster).
 * A table of contents lists the document's headings as links (html-contents.ts); footnotes are numbered and listed at
 * the end (footnotes-html.ts).
 * The stored document is trusted to be valid (it was checked when written); what a public reader shows is sanitized by
 * its caller.
 */
export function documentToHtml(doc: DocJson, options: { document?: Document; into?: HTMLElement } = {}): string {
  const own = options.document ? null : new Window({ settings: HAPPY_DOM_SETTINGS });
  const document = options.document ?? (own?.document as unknown as Document);
  try {
    serializer ??= DOMSerializer.fromSchema(storedSchema);
    const wrap = options.into ?? document.createElement('div');
    serializer.serializeFragment(readDocument(doc).content, { document }, wrap);
    tablesOfContents(wrap);
    footnotesToHtml(wrap);
    return wrap.innerHTML;
  } finally {
    if (own) {
      own.happyDOM.abort();
      void own.happyDOM.close();
    }
  }
}
