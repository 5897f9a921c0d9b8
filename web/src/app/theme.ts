import { createTheme } from '@mantine/core';

/**
 * One theme, light and dark; colours chosen for WCAG AA contrast on both (checked by axe-core in
 * test/web/a11y.journey.ts): blue 8 is the lightest of Mantine's blues that white text and links on white reach 4.5:1
 * with. The dimmed grey is darkened in global.css.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});
