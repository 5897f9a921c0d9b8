import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA, accessibleColorVariables, contrast, darken, firstReaching, lighten } from '../../web/src/app/contrast.ts';

const colors = DEFAULT_THEME.colors as unknown as Record<string, readonly string[]>;
const { light, dark } = accessibleColorVariables(colors);
const named = Object.keys(colors);

describe('contrast', () => {
  it('computes WCAG 2 ratios', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrast('#ffffff', '#777777')).toBe(contrast('#777777', '#ffffff'));
    // The findings of issue 30, measured on Mantine's own shades: yellow 9 on yellow 1 (the MEDIUM badge), white on
    // green 8 (a filled green button), violet 4 on the dark code background.
    expect(contrast(colors.yellow[9], colors.yellow[1])).toBeLessThan(3);
    expect(contrast('#ffffff', colors.green[8])).toBeLessThan(AA);
    expect(contrast(colors.violet[4], colors.dark[5])).toBeLessThan(AA);
  });

  it('darkens and lightens like Mantine', () => {
    expect(darken('#808080', 0.5)).toBe('#404040');
    expect(lighten('#000000', 0.5)).toBe('#808080');
  });

  it('takes the first shade that reaches the ratio, going past the last one when none does', () => {
    expect(firstReaching(['#ffffff', '#767676', '#000000'], ['#ffffff'], 'darker')).toBe('#767676');
    const beyond = firstReaching([colors.yellow[9]], [colors.yellow[1]], 'darker');
    expect(contrast(beyond, colors.yellow[1])).toBeGreaterThanOrEqual(AA);
  });

  it('gives every colour a filled variant white text reaches AA on, in both themes, hover included', () => {
    for (const c of named)
      for (const scheme of [light, dark]) {
        expect(contrast('#ffffff', scheme[`--mantine-color-${c}-filled`]), c).toBeGreaterThanOrEqual(AA);
        expect(contrast('#ffffff', scheme[`--mantine-color-${c}-filled-hover`]), c).toBeGreaterThanOrEqual(AA);
      }
    // Colours that already reach it keep Mantine's shade.
    expect(light['--mantine-color-blue-filled']).toBe(colors.blue[8]);
  });

  it('gives every light variant (tinted badges, the selected row) text that reaches AA on its tint and its hover tint', () => {
    for (const c of named) {
      const text = light[`--mantine-color-${c}-light-color`];
      for (const bg of [colors[c][1], colors[c][2], '#ffffff']) expect(contrast(text, bg), `${c} on ${bg}`).toBeGreaterThanOrEqual(AA);
      const darkText = dark[`--mantine-color-${c}-light-color`];
      for (const bg of [darken(colors[c][9], 0.5), darken(colors[c][9], 0.3)]) expect(contrast(darkText, bg), `${c} (dark)`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('gives every coloured text (code highlighting, outline badges) AA on the page, cards and code blocks of both themes', () => {
    for (const c of named) {
      for (const bg of ['#ffffff', colors.gray[0], colors.gray[1]]) expect(contrast(light[`--mantine-color-${c}-text`], bg), c).toBeGreaterThanOrEqual(AA);
      for (const bg of [colors.dark[5], colors.dark[6], colors.dark[7]])
        expect(contrast(dark[`--mantine-color-${c}-text`], bg), `${c} (dark)`).toBeGreaterThanOrEqual(AA);
    }
    expect(dark['--mantine-color-red-text']).toBe(colors.red[4]);
  });
});
