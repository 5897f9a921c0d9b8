import { notifications } from '@mantine/notifications';
import { type KeyboardEvent, type MouseEvent, useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { inNewTab, opensMention, pageMentionOf } from './mention-chips';

interface MentionLinkHandlers {
  onClick: (event: MouseEvent<HTMLElement>) => void;
  onAuxClick: (event: MouseEvent<HTMLElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

/**
 * Page mentions as links, on the element around a page's content: a click opens the page when reading, Ctrl/Cmd-click
 * when editing (a plain click places the caret, as in any text); a middle or Shift click opens it in another tab;
 * Enter on a focused mention (read-only views make them focusable) opens it. `pathOf` names the page's address, or
 * null when it has none (then the mention stays text): `useWorkspacePagePath` in the app, the share's own pages in a
 * public share.
 */
export function useMentionLinks(editable: boolean, pathOf: (pageId: string) => Promise<string | null> | string | null): MentionLinkHandlers {
  const navigate = useNavigate();
  const resolve = useCallback(async (pageId: string) => pathOf(pageId), [pathOf]);
  const open = useCallback(
    (pageId: string, newTab: boolean) => {
      const tab = newTab ? window.open('', '_blank') : null;
      resolve(pageId).then(
        (path) => {
          if (!path) return tab?.close();
          if (tab) tab.location.href = path;
          else navigate(path);
        },
        () => {
          tab?.close();
          notifications.show({ color: 'red', message: 'That page cannot be opened: it was deleted or you have no access to it.' });
        },
      );
    },
    [resolve, navigate],
  );
  return useMemo(() => {
    const onMouse = (event: MouseEvent<HTMLElement>) => {
      const mention = pageMentionOf(event.target);
      if (!mention || !opensMention(event, editable)) return;
      event.preventDefault();
      open(mention.pageId, inNewTab(event, editable));
    };
    return {
      onClick: onMouse,
      onAuxClick: (event) => {
        if (event.button === 1) onMouse(event);
      },
      onKeyDown: (event) => {
        if (event.key !== 'Enter' || editable) return;
        const mention = pageMentionOf(event.target);
        if (!mention) return;
        event.preventDefault();
        open(mention.pageId, false);
      },
    };
  }, [editable, open]);
}
