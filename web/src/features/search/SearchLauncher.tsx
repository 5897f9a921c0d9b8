import { Button, Kbd } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useState } from 'react';

// The palette (Spotlight and its styles) loads on first use, or when the pointer nears the button.
const loadPalette = () => import('./SearchPalette');
const SearchPalette = lazy(loadPalette);

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * The header's "Search" button and the Ctrl/Cmd-K shortcut, anywhere in the workspace (in fields and the editor
 * too: the palette is where a person goes from wherever they are). Each press bumps a counter the palette opens on.
 */
export function SearchLauncher() {
  const [opens, setOpens] = useState(0);
  const open = useCallback(() => setOpens((n) => n + 1), []);
  useHotkeys([['mod+K', open]], [], true);
  return (
    <>
      <Button
        variant="default"
        size="xs"
        aria-keyshortcuts={MAC ? 'Meta+K' : 'Control+K'}
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
