/**
 * The newest emoji this browser's fonts may lack (Emoji 15 came in 2022, 16 in 2024, 17 in 2025): each version is
 * tried with one of its emoji on a canvas, and those of the first version that does not draw, and later, are left
 * out, so the picker and the ":" list never offer a blank square. Older versions are taken as drawn.
 */
const TRIED: [version: string, sample: string][] = [
  ['15', '\u{1FA75}'], // light blue heart
  ['16', '\u{1FA89}'], // harp
  ['17', '\u{1FA8A}'], // trombone
];
const FONT = '20px "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif';

function drawn(ctx: CanvasRenderingContext2D, char: string): Uint8ClampedArray {
  ctx.clearRect(0, 0, 32, 32);
  ctx.fillText(char, 0, 0);
  return ctx.getImageData(0, 0, 32, 32).data;
}

/** Drawn as one glyph: something painted, not the font's "no glyph" box (an unassigned code point's), not two glyphs side by side. */
function draws(ctx: CanvasRenderingContext2D, char: string, none: Uint8ClampedArray, oneWidth: number): boolean {
  const pixels = drawn(ctx, char);
  const painted = pixels.some((v, i) => i % 4 === 3 && v > 0);
  const asNone = pixels.every((v, i) => v === none[i]);
  return painted && !asNone && ctx.measureText(char).width < oneWidth * 1.5;
}

/** The versions to leave out, given the hexcodes of each version (emojibase's versions/emoji.json). */
export function versionsNotDrawn(): string[] {
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!ctx) return [];
  ctx.canvas.width = ctx.canvas.height = 32;
  ctx.font = FONT;
  ctx.textBaseline = 'top';
  const none = drawn(ctx, '\u{1FFFE}').slice();
  const oneWidth = ctx.measureText('\u{1F600}').width;
  const first = TRIED.findIndex(([, sample]) => !draws(ctx, sample, none, oneWidth));
  if (first < 0) return [];
  // 15.1's are sequences of older emoji: without 16 they show as their parts side by side.
  return [...TRIED.slice(first).map(([v]) => v), ...(first <= 1 ? ['15.1'] : [])];
}
