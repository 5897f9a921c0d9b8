import type { AnyExtension } from '@tiptap/core';
import { Image } from '@tiptap/extension-image';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import { Mention } from '@tiptap/extension-mention';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { StarterKit } from '@tiptap/starter-kit';
import { blockExtensions } from './blocks.js';
import { DateNode } from './dates.js';
import { FootnoteNode } from './footnotes.js';
import { Highlight } from './highlight.js';
import { checkImageAlign, checkImageCaption, checkImageWidth, imageFromHtml, imageHtml } from './images.js';
import { BackgroundColor, TextColor } from './text-colours.js';
import { isAllowedImageUrl, isAllowedLinkUrl } from './urls.js';

/**
 * The content we accept, as Tiptap extensions: the server builds its ProseMirror schema from this list with
 * `getSchema`, and the web editor is to use the very same list, so both agree on every node, mark and attribute.
 * Attributes get `validate` functions (checked by ProseMirror when a document is built), which only narrow what
 * Tiptap would already produce.
 */

const LIMITS = { url: 2048, short: 200, text: 1000 } as const;

type Check = (value: unknown) => void;

function fail(message: string): never {
  throw new RangeError(message);
}

/**
 * Checks of text attributes. Tiptap reads an attribute without a `parseHTML` of its own from HTML through
 * `fromString`, which makes `alt="250"` the number 250 (and `"true"` a boolean) and so a document no check lets
 * through: these are read as written instead.
 */
const textual = new WeakSet<Check>();

const nullable = (check: Check): Check => {
  const out: Check = (v) => {
    if (v !== null) check(v);
  };
  if (textual.has(check)) textual.add(out);
  return out;
};
const str = (max: number, pattern?: RegExp, what = 'a string'): Check => {
  const check: Check = (v) => {
    if (typeof v !== 'string') fail(`must be ${what}`);
    if (v.length > max) fail(`must be at most ${max} characters`);
    if (pattern && !pattern.test(v)) fail(`must be ${what}`);
  };
  textual.add(check);
  return check;
};
const int =
  (min: number, max: number): Check =>
  (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(`must be an integer from ${min} to ${max}`);
  };
const oneOf =
  (...values: unknown[]): Check =>
  (v) => {
    if (!values.includes(v)) fail(`must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
  };
const bool: Check = (v) => {
  if (typeof v !== 'boolean') fail('must be a boolean');
};
const size: Check = (v) => {
  if (v === null) return;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 100_000) return;
  if (typeof v === 'string' && v.length <= 32) return;
  fail('must be null, a non-negative number or a short string');
};

/** A URL attribute: non-empty, bounded (Base64 images may be longer), and allowed by `allowed` (see urls.ts). */
const url =
  (allowed: (url: string) => boolean): Check =>
  (v) => {
    if (typeof v !== 'string' || v.trim() === '') fail('must be a non-empty URL');
    if (v.length > LIMITS.url && !/^data:image\//i.test(v)) fail(`must be at most ${LIMITS.url} characters`);
    if (!allowed(v)) fail('uses a URL scheme that is not allowed');
  };

/** Merges a `validate` into the parent's attribute definitions (and reads a text attribute from HTML as text). */
function withValidators<T extends { extend: (config: any) => any }>(ext: T, checks: Record<string, Check>): T {
  return ext.extend({
    addAttributes(this: { parent?: () => Record<string, { parseHTML?: unknown }> }) {
      const parent = this.parent?.() ?? {};
      const out: Record<string, object> = { ...parent };
      for (const [name, validate] of Object.entries(checks)) {
        const own = parent[name] ?? { default: null };
        const asText = textual.has(validate) && !own.parseHTML ? { parseHTML: (element: HTMLElement) => element.getAttribute(name) } : {};
        out[name] = { ...own, ...asText, validate };
      }
      return out;
    },
  });
}

const cellChecks = {
  colspan: int(1, 1000),
  rowspan: int(1, 1000),
  colwidth: nullable((v) => {
    if (!Array.isArray(v) || v.length > 1000 || !v.every((w) => typeof w === 'number' && Number.isFinite(w) && w >= 0 && w <= 100_000))
      fail('must be null or an array of widths');
  }),
  align: nullable(oneOf('left', 'center', 'right')),
};

const imageChecks = {
  src: url(isAllowedImageUrl),
  alt: nullable(str(LIMITS.text)),
  title: nullable(str(LIMITS.text)),
  width: size,
  height: size,
};

/** The block image's attributes as HTML gives them (an `<img>`, or a figure holding one: images.ts). */
const fromImageHtml = (name: string) => (el: HTMLElement) => {
  const attrs = imageFromHtml(el);
  return attrs ? (attrs[name] ?? null) : null;
};
const imageHtmlAttr = (name: string, validate?: Check) => ({
  default: null,
  parseHTML: fromImageHtml(name),
  renderHTML: () => ({}),
  ...(validate ? { validate } : {}),
});

/**
 * A picture as a block of its own, with its layout (a width in percent, an alignment, a caption: images.ts). Its HTML
 * is a plain `<img>`, or a figure when it has a layout; both read back.
 */
const BlockImage = Image.extend({
  addAttributes(this: { parent?: () => Record<string, object> }) {
    return {
      ...this.parent?.(),
      src: imageHtmlAttr('src'),
      alt: imageHtmlAttr('alt'),
      title: imageHtmlAttr('title'),
      width: imageHtmlAttr('width', checkImageWidth),
      align: imageHtmlAttr('align', checkImageAlign),
      caption: imageHtmlAttr('caption', checkImageCaption),
    };
  },
  parseHTML() {
    return [
      { tag: 'figure', priority: 55, getAttrs: (el: HTMLElement) => (imageFromHtml(el) ? {} : false) },
      { tag: this.options.allowBase64 ? 'img[src]' : 'img[src]:not([src^="data:"])' },
    ];
  },
  renderHTML({ node }) {
    return imageHtml(node.attrs);
  },
});

/** Elements that make their own line: an image's line of text ends at the nearest of them. */
const BLOCK_ELEMENTS = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE BODY DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR HTML LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TFOOT TH THEAD TR UL'.split(
    ' ',
  ),
);

/** Whether some text shares the image's line: its nearest block ancestor holds text outside nested blocks. */
export function imageInLineOfText(img: HTMLElement): boolean {
  let block: Element | null = img.parentElement;
  while (block && !BLOCK_ELEMENTS.has(block.tagName.toUpperCase())) block = block.parentElement;
  if (!block) return false;
  const stack: Node[] = [...block.childNodes];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.nodeType === 3 && node.textContent?.trim()) return true;
    if (node.nodeType === 1 && !BLOCK_ELEMENTS.has((node as Element).tagName.toUpperCase())) stack.push(...node.childNodes);
  }
  return false;
}

/**
 * An image inside a line of text (an icon in a sentence, a badge after a word): inline, where `image` is a block of
 * its own. HTML gives it an `<img>` that shares its line with text (anything else is a block `image`); Markdown an
 * image in a paragraph or heading that has text (see markdown.ts). It adds no command or input rule: the editor's
 * "insert image" stays the block one.
 */
const InlineImage = Image.extend({
  name: 'inlineImage',
  addCommands: () => ({}),
  addInputRules: () => [],
  parseHTML() {
    return [
      {
        tag: this.options.allowBase64 ? 'img[src]' : 'img[src]:not([src^="data:"])',
        // Before the block image's rule, and only for an image in a line of text (`false`: not this rule).
        priority: 60,
        getAttrs: (dom: HTMLElement) => (imageInLineOfText(dom) ? {} : false),
      },
    ];
  },
});

export const extensions: AnyExtension[] = [
  StarterKit.configure({
    // Not in the accepted set (no Markdown syntax for it); editor-only helpers carry no schema.
    underline: false,
    heading: { levels: [1, 2, 3, 4, 5, 6] },
    link: { openOnClick: false, autolink: false },
  }).extend({
    addExtensions(this: { parent?: () => AnyExtension[] }) {
      return (this.parent?.() ?? []).map((ext) => {
        switch (ext.name) {
          case 'heading':
            return withValidators(ext, { level: int(1, 6) });
          case 'codeBlock':
            return withValidators(ext, { language: nullable(str(64, /^[^\s`]*$/, 'a language name without spaces or backticks')) });
          case 'orderedList':
            return withValidators(ext, { start: int(0, 1_000_000_000), type: nullable(oneOf('1', 'a', 'A', 'i', 'I')) });
          case 'link':
            return withValidators(ext, {
              href: url(isAllowedLinkUrl),
              target: nullable(str(32)),
              rel: nullable(str(LIMITS.short)),
              class: nullable(str(LIMITS.short)),
              title: nullable(str(LIMITS.text)),
            });
          default:
            return ext;
        }
      });
    },
  }),
  Table.configure({ resizable: false }),
  TableRow,
  withValidators(TableCell, cellChecks),
  withValidators(TableHeader, cellChecks),
  TaskList,
  withValidators(TaskItem.configure({ nested: true }), { checked: bool }),
  withValidators(BlockImage.configure({ inline: false, allowBase64: true }), {
    src: imageChecks.src,
    alt: imageChecks.alt,
    title: imageChecks.title,
    height: size,
  }),
  withValidators(InlineImage.configure({ inline: true, allowBase64: true }), imageChecks),
  withValidators(Mention, {
    id: str(LIMITS.short, /\S/, 'a non-empty id'),
    label: nullable(str(LIMITS.short)),
    mentionSuggestionChar: str(2),
  }),
  Highlight,
  TextColor,
  BackgroundColor,
  DateNode,
  FootnoteNode,
  ...blockExtensions,
];
