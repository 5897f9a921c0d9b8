import { Menu, type MenuProps } from '@mantine/core';
import { cloneElement, type ReactElement, type ReactNode, useState } from 'react';

/**
 * A Mantine `Menu` built on its first open. Until then only its target renders, with a menu button's ARIA
 * (`aria-haspopup="menu"`, `aria-expanded="false"`); the first click builds the menu, open. A closed Menu still
 * renders a popover, its floating position hooks and a portal (and a second render when the portal mounts): on the
 * first screen that was ~2 ms for each of the header's menus and each tree row's.
 *
 * `target` is the button (it must take `onClick`); `children` the `Menu.Dropdown`.
 */
export function LazyMenu({
  target,
  children,
  ...menu
}: Omit<MenuProps, 'children' | 'opened' | 'defaultOpened'> & { target: ReactElement<{ onClick?: () => void }>; children: ReactNode }) {
  const [built, setBuilt] = useState(false);
  if (!built) return cloneElement(target, { 'aria-haspopup': 'menu', 'aria-expanded': false, onClick: () => setBuilt(true) } as { onClick: () => void });
  return (
    <Menu {...menu} defaultOpened>
      <Menu.Target>{target}</Menu.Target>
      {children}
    </Menu>
  );
}
