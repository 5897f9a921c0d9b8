import { Mark } from '@tiptap/core';

/**
 * Coloured text (`textColor`, attribute `color`; and `backgroundColor` below): one of a fixed palette of names
 * (Notion's set), never a CSS value, so nothing a page stores can carry style into a reader; each theme gives every
 * name its own colour (the web app's editor.css, the public reader's stylesheet). HTML `<span data-color="red">text</span>`; Markdown the same span
 * (markdown.ts), which a renderer that keeps inline HTML shows as the plain text and one that does not shows as
 * written. Read from other tools' HTML too: Notion's `<mark class="highlight-red">`, a span's `color:` style (Confluence,
 * Google Docs) or `<font color>` when the colour plainly is one of the palette (`paletteColourOf`).
 */

export const TEXT_COLOURS = ['gray', 'brown', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'red'] as const;
export type TextColour = (typeof TEXT_COLOURS)[number];

export const isTextColour = (v: unknown): v is TextColour => typeof v === 'string' && (TEXT_COLOURS as readonly string[]).includes(v);

const colourAttr = (v: unknown) => {
  if (!isTextColour(v)) throw new RangeError(`must be one of ${TEXT_COLOURS.map((c) => JSON.stringify(c)).join(', ')} (a colour's name, not a CSS value)`);
};

/**
 * Colours that other tools write for a palette colour exactly: Notion's text colours (light and dark) and Confluence's
 * greys and purples (its purples are blue by hue alone).
 */
const KNOWN: Record<string, TextColour> = {
  '#787774': 'gray',
  '#9b9a97': 'gray',
  '#9b9b9b': 'gray',
  '#979a9b': 'gray',
  '#97a0af': 'gray',
  '#6b778c': 'gray',
  '#9f6b53': 'brown',
  '#64473a': 'brown',
  '#ba856f': 'brown',
  '#937264': 'brown',
  '#d9730d': 'orange',
  '#c77d48': 'orange',
  '#ffa344': 'orange',
  '#cb912f': 'yellow',
  '#dfab01': 'yellow',
  '#ca9849': 'yellow',
  '#ffdc49': 'yellow',
  '#448361': 'green',
  '#0f7b6c': 'green',
  '#529e72': 'green',
  '#4dab9a': 'green',
  '#337ea9': 'blue',
  '#0b6e99': 'blue',
  '#5e87c9': 'blue',
  '#529cca': 'blue',
  '#9065b0': 'purple',
  '#6940a5': 'purple',
  '#9d68d3': 'purple',
  '#9a6dd7': 'purple',
  '#403294': 'purple',
  '#6554c0': 'purple',
  '#8777d9': 'purple',
  '#c14c8a': 'pink',
  '#ad1a72': 'pink',
  '#d15796': 'pink',
  '#e255a1': 'pink',
  '#d44c47': 'red',
  '#e03e3e': 'red',
  '#df5452': 'red',
  '#ff7369': 'red',
};

/** CSS colour names worth reading (the palette's own, and a few common others); black and white are no colour. */
const NAMED: Record<string, string> = {
  gray: '#808080',
  grey: '#808080',
  brown: '#a52a2a',
  orange: '#ffa500',
  yellow: '#ffff00',
  green: '#008000',
  blue: '#0000ff',
  purple: '#800080',
  pink: '#ffc0cb',
  red: '#ff0000',
  darkred: '#8b0000',
  maroon: '#800000',
  navy: '#000080',
  teal: '#008080',
  magenta: '#ff00ff',
  fuchsia: '#ff00ff',
  violet: '#ee82ee',
  gold: '#ffd700',
  olive: '#808000',
  lime: '#00ff00',
  silver: '#c0c0c0',
  darkgray: '#a9a9a9',
  darkgrey: '#a9a9a9',
  dimgray: '#696969',
  dimgrey: '#696969',
};

/** `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(…)`/`rgba(…)` or a name above, as [r, g, b] (0–255), or null. */
function rgbOf(css: string): [number, number, number] | null {
  const value = css
    .trim()
    .toLowerCase()
    .replace(/\s*!important$/, '');
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(NAMED[value] ?? value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex.slice(0, 6);
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(value);
  if (!rgb) return null;
  const parts = rgb.slice(1, 4).map(Number);
  return parts.every((n) => n <= 255) ? (parts as [number, number, number]) : null;
}

const toHex = (rgb: number[]) => `#${rgb.map((n) => n.toString(16).padStart(2, '0')).join('')}`;

/**
 * The palette colour a CSS colour plainly is, or null (near black or white, a grey not known to be one of the
 * palette's, anything unreadable). Colours other tools write for the palette are known exactly; any other saturated
 * colour goes by its hue (dark orange reads as brown).
 */
export function paletteColourOf(css: string | null | undefined): TextColour | null {
  if (!css || css.length > 64) return null;
  const rgb = rgbOf(css);
  if (!rgb) return null;
  const known = KNOWN[toHex(rgb)];
  if (known) return known;
  const [r, g, b] = rgb.map((n) => n / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const light = (max + min) / 2;
  const chroma = max - min;
  if (light < 0.2 || light > 0.9) return null;
  if (chroma < 0.15) return /gr[ae]y/i.test(css) ? 'gray' : null;
  let hue = max === r ? ((g - b) / chroma) % 6 : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  hue = (hue * 60 + 360) % 360;
  if (hue < 12 || hue >= 345) return 'red';
  if (hue < 42) return light < 0.35 || chroma < 0.35 ? 'brown' : 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 165) return 'green';
  if (hue < 255) return 'blue';
  if (hue < 290) return 'purple';
  return 'pink';
}

/** Notion's text colour on an inline run: `<mark class="highlight-red">` (its `…_background` classes are backgrounds). */
function notionTextColour(el: HTMLElement): TextColour | null {
  const name = /(?:^|\s)highlight-([a-z]+)(?:\s|$)/.exec(el.getAttribute('class') ?? '')?.[1];
  return isTextColour(name) ? name : null;
}

/** The `color` of an element's inline style (not `background-color`), as written. */
function styleColour(el: HTMLElement): string | null {
  return /(?:^|;)\s*color\s*:\s*([^;]+)/i.exec(el.getAttribute('style') ?? '')?.[1]?.trim() ?? null;
}

/** A background colour from HTML: kb's `<mark data-color>`, or Notion's `<mark class="highlight-red_background">`. */
function backgroundOf(el: HTMLElement): TextColour | null {
  const named = el.getAttribute('data-color');
  if (isTextColour(named)) return named;
  const notion = /(?:^|\s)highlight-([a-z]+)_background(?:\s|$)/.exec(el.getAttribute('class') ?? '')?.[1];
  return isTextColour(notion) ? notion : null;
}

const asAttrs = (color: TextColour | null) => (color ? { color } : false);

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    textColor: {
      /** Colours the selection with one of the palette's colours. */
      setTextColor: (color: TextColour) => ReturnType;
      /** Gives the selection its default colour back. */
      unsetTextColor: () => ReturnType;
    };
    backgroundColor: {
      /** Puts the selection on one of the palette's backgrounds (in place of a highlight). */
      setBackgroundColor: (color: TextColour) => ReturnType;
      /** Takes the selection's background colour off. */
      unsetBackgroundColor: () => ReturnType;
    };
  }
}

export const TextColor = Mark.create({
  name: 'textColor',
  addAttributes() {
    return { color: { default: null, validate: colourAttr, parseHTML: (el: HTMLElement) => el.getAttribute('data-color'), renderHTML: () => ({}) } };
  },
  parseHTML() {
    return [
      {
        tag: 'span[data-color]',
        getAttrs: (el: HTMLElement) => asAttrs(isTextColour(el.getAttribute('data-color')) ? (el.getAttribute('data-color') as TextColour) : null),
      },
      // Before the highlight's `mark` rule: Notion writes a text colour as a `<mark>` with a class.
      { tag: 'mark[class]', priority: 60, getAttrs: (el: HTMLElement) => asAttrs(notionTextColour(el)) },
      { tag: 'font[color]', getAttrs: (el: HTMLElement) => asAttrs(paletteColourOf(el.getAttribute('color'))) },
      // A span's colour only (Confluence, Google Docs): a link copied from a web page carries its site's link colour
      // on the `<a>`, which is no colour its author chose. Below other span rules (a mention, inline math).
      { tag: 'span[style*="color"]', priority: 40, getAttrs: (el: HTMLElement) => asAttrs(paletteColourOf(styleColour(el))) },
    ];
  },
  renderHTML({ mark }) {
    return ['span', { 'data-color': mark.attrs.color }, 0];
  },
  addCommands() {
    return {
      setTextColor:
        (color) =>
        ({ commands }) =>
          commands.setMark(this.name, { color }),
      unsetTextColor:
        () =>
        ({ commands }) =>
          commands.unsetMark(this.name),
    };
  },
});

/**
 * A background colour (`backgroundColor`, attribute `color`): the same palette, each theme's tint of it behind the
 * text. HTML and Markdown `<mark data-color="yellow">text</mark>`; Notion's `<mark class="highlight-yellow_background">`
 * reads so too. The theme's own highlight (`highlight`, `==text==`) stays a mark of its own; setting a background
 * takes a highlight off the same text.
 */
export const BackgroundColor = Mark.create({
  name: 'backgroundColor',
  addAttributes() {
    return { color: { default: null, validate: colourAttr, parseHTML: backgroundOf, renderHTML: () => ({}) } };
  },
  parseHTML() {
    // Above the highlight's plain `mark` rule: a mark naming a palette colour is this one.
    return [{ tag: 'mark', priority: 55, getAttrs: (el: HTMLElement) => asAttrs(backgroundOf(el)) }];
  },
  renderHTML({ mark }) {
    return ['mark', { 'data-color': mark.attrs.color }, 0];
  },
  addCommands() {
    return {
      setBackgroundColor:
        (color) =>
        ({ chain }) =>
          chain().unsetMark('highlight').setMark(this.name, { color }).run(),
      unsetBackgroundColor:
        () =>
        ({ commands }) =>
          commands.unsetMark(this.name),
    };
  },
});
