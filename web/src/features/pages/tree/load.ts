import { Loader } from '@mantine/core';
import { createElement } from 'react';
import { lazyModule } from '../../../ui/lazy-module';

/** The page tree's code (drag and drop, virtual scrolling) and its component, which the sidebar renders. */
export const pageTree = lazyModule(() => import('./PageTree'), createElement(Loader, { size: 'xs', 'aria-label': 'Loading pages', m: 'xs' }));
