import type { DOMOutputSpec } from '@tiptap/pm/model';

/**
 * The layout of a block image (the `image` node; an `inlineImage` in a line of text has none):
 * - `width`: a whole percentage of the page's width, 10–100, or null (the picture's natural size, never wider than
 *   the page);
 * - `align`: 'left' | 'center' | 'right', or null (the page's flow: left);
 * - `caption`: plain text under the image, one line of at most MAX_CAPTION characters, or null.
 * Markdown `![alt](src "caption"){width=50% align=center}` (the title slot carries the caption; the attribute list only
 * when a width or an alignment is set, so Markdown without them reads and writes as before). HTML
 * `<figure class="image" data-align="center" style="width:50%"><img src alt><figcaption>caption</figcaption></figure>`
 * when any of the three is set, a plain `<img>` otherwise; a figure holding one image (Notion's, kb's own) reads back.
 */

export const MIN_IMAGE_WIDTH = 10;
export const MAX_IMAGE_WIDTH = 100;
export const MAX_CAPTION = 500;
export const IMAGE_ALIGNS = ['left', 'center', 'right'] as const;
export type ImageAlign = (typeof IMAGE_ALIGNS)[number];

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

const fail = (message: string): never => {
  throw new RangeError(message);
};

export const checkImageWidth = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_IMAGE_WIDTH || v > MAX_IMAGE_WIDTH)
    fail(`attribute "width" of image must be null or a whole percentage from ${MIN_IMAGE_WIDTH} to ${MAX_IMAGE_WIDTH}`);
};
export const checkImageAlign = (v: unknown) => {
  if (v !== null && !IMAGE_ALIGNS.includes(v as ImageAlign)) fail(`attribute "align" of image must be null or one of "left", "center", "right"`);
};
export const checkImageCaption = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'string') fail('attribute "caption" of image must be null or a string');
  const s = v as string;
  if (s.length > MAX_CAPTION) fail(`attribute "caption" of image must be at most ${MAX_CAPTION} characters`);
  if (CONTROL.test(s)) fail('attribute "caption" of image must be one line of plain text without control characters');
};

/** A width as the schema keeps it: a whole percentage clamped to 10–100, from a number or `50%`; null for anything else. */
export function cleanImageWidth(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(?:\.\d+)?\s*%\s*$/.test(value) ? Number.parseFloat(value) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  return Math.min(MAX_IMAGE_WIDTH, Math.max(MIN_IMAGE_WIDTH, Math.round(n)));
}

export const cleanImageAlign = (value: unknown): ImageAlign | null => {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return IMAGE_ALIGNS.includes(v as ImageAlign) ? (v as ImageAlign) : null;
};

/** `value` with each control character a space (a caption being typed: not trimmed yet). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const asOneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/gu, ' ');

/** A caption as the schema keeps it: one line, trimmed, cut to MAX_CAPTION characters, or null. */
export function cleanCaption(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters become spaces
  const line = value.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/gu, ' ').trim();
  if (!line) return null;
  return line.length > MAX_CAPTION ? `${line.slice(0, MAX_CAPTION - 1)}…` : line;
}

/** The percentage an element's inline style gives its width (`width: 50%`), or null (pixels and the rest are no layout of ours). */
export function styleWidth(el: Element): number | null {
  const m = /(?:^|;)\s*width\s*:\s*([\d.]+%)/i.exec(el.getAttribute('style') ?? '');
  return m ? cleanImageWidth(m[1]) : null;
}

/** The image a figure shows, when it holds exactly one and no other content than its caption (and a link around the image). */
export function figureImage(figure: Element): Element | null {
  if (figure.hasAttribute('data-embed')) return null;
  const images = figure.querySelectorAll('img[src]');
  if (images.length !== 1) return null;
  for (const el of figure.querySelectorAll('*')) {
    const tag = el.tagName.toUpperCase();
    if (!['IMG', 'FIGCAPTION', 'A', 'PICTURE', 'SOURCE', 'DIV', 'SPAN'].includes(tag) && !el.closest('figcaption')) return null;
  }
  const rest = figure.cloneNode(true) as Element;
  for (const caption of rest.querySelectorAll('figcaption')) caption.remove();
  return rest.textContent?.trim() ? null : images[0];
}

/** The attributes of a block image read from HTML: `el` is an `<img>` or a figure holding one (see `figureImage`). */
export function imageFromHtml(el: HTMLElement): Record<string, unknown> | false {
  const isFigure = el.tagName.toUpperCase() === 'FIGURE';
  const img = isFigure ? figureImage(el) : el;
  if (!img) return false;
  const caption = isFigure ? cleanCaption(el.querySelector('figcaption')?.textContent ?? null) : null;
  const align = cleanImageAlign(el.getAttribute('data-align') ?? img.getAttribute('data-align'));
  const width =
    (isFigure ? styleWidth(el) : null) ??
    styleWidth(img) ??
    (/%\s*$/.test(img.getAttribute('width') ?? '') ? cleanImageWidth(img.getAttribute('width')) : null);
  return {
    src: img.getAttribute('src'),
    alt: img.getAttribute('alt'),
    title: img.getAttribute('title'),
    width,
    align,
    caption,
  };
}

interface ImageAttrs {
  src?: unknown;
  alt?: unknown;
  title?: unknown;
  height?: unknown;
  width?: unknown;
  align?: unknown;
  caption?: unknown;
}

/** Whether an image has a layout of its own (and so is written as a figure, or with a Markdown attribute list). */
export const hasImageLayout = (attrs: ImageAttrs) => attrs.width != null || attrs.align != null;

/** A block image's HTML: a figure when it has a width, an alignment or a caption, a plain `<img>` otherwise. */
export function imageHtml(attrs: ImageAttrs): DOMOutputSpec {
  const img: Record<string, string> = { src: String(attrs.src ?? '') };
  if (attrs.alt != null) img.alt = String(attrs.alt);
  if (attrs.title != null) img.title = String(attrs.title);
  if (!hasImageLayout(attrs) && attrs.caption == null) {
    // As before: a height kept from imported HTML still sizes a plain image.
    if (attrs.height != null) img.height = String(attrs.height);
    return ['img', img];
  }
  const figure: Record<string, string> = { class: 'image' };
  if (attrs.align != null) figure['data-align'] = String(attrs.align);
  if (typeof attrs.width === 'number') figure.style = `width:${attrs.width}%`;
  return attrs.caption != null ? ['figure', figure, ['img', img], ['figcaption', String(attrs.caption)]] : ['figure', figure, ['img', img]];
}

// ---------- Markdown: the attribute list after an image ----------

/** `{width=50% align=center}` right after an image (either key alone, in any order; nothing else inside). */
const ATTR_LIST = /^\{[ \t]*((?:(?:width=\d{1,3}%|align=(?:left|center|right))[ \t]*)+)\}/;

/** The layout an attribute list at the start of `text` gives, and its length; null when `text` starts with none. */
export function readImageAttrList(text: string): { width: number | null; align: ImageAlign | null; length: number } | null {
  const m = ATTR_LIST.exec(text);
  if (!m) return null;
  let width: number | null = null;
  let align: ImageAlign | null = null;
  for (const part of m[1].trim().split(/[ \t]+/)) {
    const [key, value] = part.split('=');
    if (key === 'width') width = cleanImageWidth(value);
    else align = cleanImageAlign(value);
  }
  return { width, align, length: m[0].length };
}

/** The attribute list an image's layout is written with (empty when it has none). */
export function imageAttrList(attrs: ImageAttrs): string {
  const parts: string[] = [];
  if (typeof attrs.width === 'number') parts.push(`width=${attrs.width}%`);
  if (attrs.align != null) parts.push(`align=${attrs.align}`);
  return parts.length ? `{${parts.join(' ')}}` : '';
}

// ---------- Content written before the layout ----------

/** Whether a stored block image's `width` is one the schema takes now (a pixel width from imported HTML is not). */
export const isLayoutWidth = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= MIN_IMAGE_WIDTH && v <= MAX_IMAGE_WIDTH);

/**
 * A stored document with each block image's pixel width (kept from imported HTML before `width` became a percentage)
 * cleared: the picture shows at its natural size, as it did. The same object when nothing changes.
 */
export function withoutPixelWidths(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const node = json as { type?: unknown; attrs?: Record<string, unknown>; content?: unknown[] };
  let out = node;
  if (node.type === 'image' && node.attrs && !isLayoutWidth(node.attrs.width)) out = { ...node, attrs: { ...node.attrs, width: null } };
  if (Array.isArray(node.content)) {
    const content = node.content.map(withoutPixelWidths);
    if (content.some((c, i) => c !== node.content![i])) out = { ...out, content };
  }
  return out;
}
