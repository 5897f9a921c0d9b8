import { Box, Text, VisuallyHidden } from '@mantine/core';
import { diffLines } from 'diff';
import { useMemo } from 'react';

/**
 * Line diff of two Markdown texts. Colour is never the only signal: each changed line starts with + or − and
 * carries "Added" / "Removed" for screen readers (`<ins>` / `<del>`).
 */
export function VersionDiff({ before, after }: { before: string; after: string }) {
  // Keys from each part's place in the texts (stable for a given pair, unlike list indexes).
  const parts = useMemo(() => {
    let at = 0;
    return diffLines(before, after).map((p) => {
      const key = `${at}:${p.added ? 'a' : p.removed ? 'r' : 'c'}`;
      at += p.value.length;
      return { ...p, key };
    });
  }, [before, after]);
  const changed = parts.some((p) => p.added || p.removed);
  if (!changed)
    return (
      <Text size="sm" c="dimmed">
        No differences: this version is the same as the current page.
      </Text>
    );
  return (
    <Box
      component="pre"
      aria-label="Differences"
      fz="sm"
      ff="monospace"
      m={0}
      p="sm"
      style={{
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      {parts.map((part) => {
        const lines = part.value.replace(/\n$/, '').split('\n');
        if (part.added)
          return (
            <Box key={part.key} component="ins" display="block" style={{ textDecoration: 'none', background: 'var(--mantine-color-green-light)' }}>
              <VisuallyHidden>Added: </VisuallyHidden>
              {lines.map((l) => `+ ${l}`).join('\n')}
            </Box>
          );
        if (part.removed)
          return (
            <Box key={part.key} component="del" display="block" style={{ textDecoration: 'none', background: 'var(--mantine-color-red-light)' }}>
              <VisuallyHidden>Removed: </VisuallyHidden>
              {lines.map((l) => `− ${l}`).join('\n')}
            </Box>
          );
        return (
          <Box key={part.key} component="span" display="block" c="dimmed">
            {lines.map((l) => `  ${l}`).join('\n')}
          </Box>
        );
      })}
    </Box>
  );
}
