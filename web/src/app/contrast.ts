/**
 * WCAG 2 contrast, and the theme colours every Badge, Button, Alert and text colour is drawn from, chosen so that each
 * reaches AA (4.5:1) in the light and the dark theme. Mantine derives them from fixed shades (a filled badge is shade 8
 * under white text, a light one shade 9 on shade 1, coloured text in the dark is shade 4), and several of its colours
 * fall short there: yellow 9 on yellow 1 is 2.7:1, white on green 8 3.4:1, violet 4 on the dark code background 3.3:1.
 * Here each variant takes the first shade that reaches the ratio against every background it is shown on, going past
 * the last shade (darker or lighter in small steps) when none does. Pure: no DOM, no Mantine, so it is unit tested.
 */

export const AA = 4.5;

type Rgb = [number, number, number];

function parse(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6);
  const n = Number.parseInt(full, 16);
  if (!/^[0-9a-f]{6}$/i.test(full) || Number.isNaN(n)) throw new Error(`not a hex colour: ${hex}`);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Relative luminance (WCAG 2). */
export function luminance(colour: string): number {
  const [r, g, b] = parse(colour).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two opaque colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Each channel scaled towards black by `amount` (0–1), as Mantine's `darken`. */
export function darken(colour: string, amount: number): string {
  return hex(parse(colour).map((c) => c * (1 - amount)) as Rgb);
}

/** Each channel moved towards white by `amount` (0–1), as Mantine's `lighten`. */
export function lighten(colour: string, amount: number): string {
  return hex(parse(colour).map((c) => c + (255 - c) * amount) as Rgb);
}

/**
 * The first of `shades` that reaches `ratio` against every one of `backgrounds`; past the last, that last shade
 * darkened (or lightened) in 5 % steps until it does.
 */
export function firstReaching(shades: string[], backgrounds: string[], towards: 'darker' | 'lighter', ratio = AA): string {
  const reaches = (c: string) => backgrounds.every((bg) => contrast(c, bg) >= ratio);
  const found = shades.find(reaches);
  if (found) return found;
  const last = shades[shades.length - 1];
  for (let step = 1; step <= 20; step++) {
    const next = towards === 'darker' ? darken(last, step * 0.05) : lighten(last, step * 0.05);
    if (reaches(next)) return next;
  }
  return towards === 'darker' ? '#000000' : '#ffffff';
}

export type Palette = Record<string, readonly string[]>;

export interface SchemeVariables {
  light: Record<string, string>;
  dark: Record<string, string>;
}

/**
 * The CSS variables that make every colour's variants reach AA, for Mantine's `cssVariablesResolver`:
 * - filled (badges, buttons, the primary colour): white text on it, in both themes, its hover darker still;
 * - light (tinted badges, alerts, the selected row of a list): its text on the tint and on the hover tint;
 * - coloured text (`c="green"`, outline variants, highlighted code): on the page, on cards and on code blocks.
 * `colors.gray` and `colors.dark` give the backgrounds: white, gray 0 and 1 in the light theme; dark 5, 6, 7 in the dark.
 */
export function accessibleColorVariables(colors: Palette, white = '#ffffff'): SchemeVariables {
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  const [gray0, gray1] = colors.gray;
  const lightSurfaces = [white, gray0, gray1];
  const darkSurfaces = [colors.dark[5], colors.dark[6], colors.dark[7]];
  for (const [name, shades] of Object.entries(colors)) {
    if (shades.length < 10 || !shades.every((s) => /^#[0-9a-f]{3,8}$/i.test(s))) continue; // a virtual colour or a CSS value
    const v = (suffix: string) => `--mantine-color-${name}-${suffix}`;
    const filled = firstReaching([shades[8], shades[9]], [white], 'darker');
    const text = firstReaching([shades[8], shades[9]], lightSurfaces, 'darker');
    Object.assign(light, {
      [v('filled')]: filled,
      [v('filled-hover')]: darken(filled, 0.12),
      [v('outline')]: text,
      [v('text')]: text,
      [v('light-color')]: firstReaching([shades[9]], [shades[1], shades[2], white], 'darker'),
    });
    const darkText = firstReaching([shades[4], shades[3], shades[2], shades[1], shades[0]], darkSurfaces, 'lighter');
    Object.assign(dark, {
      [v('filled')]: filled,
      [v('filled-hover')]: darken(filled, 0.12),
      [v('outline')]: darkText,
      [v('text')]: darkText,
      [v('light-color')]: firstReaching([shades[0]], [darken(shades[9], 0.5), darken(shades[9], 0.3)], 'lighter'),
    });
  }
  return { light, dark };
}
