import { type CSSVariablesResolver, createTheme } from '@mantine/core';
import { accessibleColorVariables } from './contrast';

/**
 * One theme, light and dark; colours chosen for WCAG AA contrast on both (checked by axe-core in
 * test/web/a11y.journey.ts): blue 8 is the lightest of Mantine's blues that white text and links on white reach 4.5:1
 * with. The dimmed grey is darkened in global.css; every other colour's variants by `cssVariablesResolver` below.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  components: {
    // The "×" of every dialog and drawer is a button named "Close" (Mantine leaves it unnamed). Plain objects rather
    // than `Modal.extend`, which would pull the components into the shell's bundle.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/**
 * Every theme colour's filled, light, outline and text variants, and the error colour, at WCAG AA (4.5:1) in both
 * themes (`contrast.ts`): badges, buttons and alerts of any colour pass without a per-component choice.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const { light, dark } = accessibleColorVariables(resolved.colors as unknown as Record<string, readonly string[]>, resolved.white);
  return {
    variables: {},
    light: { ...light, '--mantine-color-error': 'var(--mantine-color-red-text)' },
    dark: { ...dark, '--mantine-color-error': 'var(--mantine-color-red-text)' },
  };
};
