import { ActionIcon, Button, Kbd } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useState } from 'react';

// The palette (Spotlight and its styles) loads on first use, or when the pointer nears the button.
const loadPalette = () => import('./SearchPalette');
const SearchPalette = lazy(loadPalette);

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The header's "Search" button and the Ctrl/Cmd-K (or Ctrl/Cmd-P) shortcut, anywhere in the workspace (in fields and the editor
 * too: the palette is where a person goes from wherever they are). Each press bumps a counter the palette opens on.
 */
export function SearchLauncher() {
  const [opens, setOpens] = useState(0);
  const open = useCallback(() => setOpens((n) => n + 1), []);
  // Ctrl/Cmd-P too, as Outline has it. In the editor, Ctrl/Cmd-K on a selection or in a link is the link box's
  // (editor/links.ts stops the key there), so the palette opens from the editor only without one.
  useHotkeys(
    [
      ['mod+K', open],
      ['mod+P', open],
    ],
    [],
    true,
  );
  const keys = MAC ? 'Meta+K' : 'Control+K';
  return (
    <>
      {/* On a phone the button is its icon (named "Search" all the same), leaving the header's width to the workspace. */}
      <ActionIcon variant="default" size={30} aria-label="Search" aria-keyshortcuts={keys} hiddenFrom="xs" onClick={open} onFocus={() => void loadPalette()}>
        <IconSearch size={16} aria-hidden />
      </ActionIcon>
      <Button
        visibleFrom="xs"
        variant="default"
        size="xs"
        aria-keyshortcuts={keys}
        leftSection={<IconSearch size={14} aria-hidden />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            {MAC ? '⌘ K' : 'Ctrl K'}
          </Kbd>
        }
        onClick={open}
        onPointerEnter={() => void loadPalette()}
        onFocus={() => void loadPalette()}
      >
        Search
      </Button>
      {opens > 0 && (
        <Suspense fallback={null}>
          <SearchPalette openSignal={opens} />
        </Suspense>
      )}
    </>
  );
}
