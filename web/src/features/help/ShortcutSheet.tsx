import { useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useState } from 'react';

const ShortcutDialog = lazy(() => import('./ShortcutDialog'));
const OPEN_EVENT = 'kb:shortcuts';

/** Opens the sheet from anywhere (the account menu's "Keyboard shortcuts"). */
export const openShortcutSheet = () => window.dispatchEvent(new Event(OPEN_EVENT));

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The keyboard shortcut sheet: `?` outside a text field, Ctrl/⌘ / anywhere (the editor too), or the account menu's
 * "Keyboard shortcuts". Mounted once in the shell; its dialog is built on first open.
 */
export function ShortcutSheet() {
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    const open = () => {
      setUsed(true);
      setOpened(true);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener(OPEN_EVENT, open);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener(OPEN_EVENT, open);
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  useHotkeys([['mod+/', openShortcutSheet]], [], true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutDialog opened={opened} onClose={() => setOpened(false)} />
    </Suspense>
  );
}
