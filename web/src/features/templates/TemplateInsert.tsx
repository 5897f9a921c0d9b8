import { Modal, NavLink, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileText } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/core';
import { useEffect, useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { IconMark } from '../../ui/IconMark';
import { type EditablePage, editorPageKey } from '../pages/editor/page-doc';
import { TEMPLATE_INSERT_EVENT } from '../pages/editor/slash-menu';
import { localDate, templatesQuery } from './templates.queries';

/**
 * "Template" from the slash menu: the templates usable in the page's space, one of which goes into the page at the
 * caret with `{{date}}`, `{{author}}` and `{{title}}` (this page's title) filled by the server (`fill=true`), as a page
 * made from it would hold them. What was there stays; Ctrl/Cmd-Z takes the insert back.
 */
export function TemplateInsert({ editor, workspaceId, pageId }: { editor: Editor; workspaceId: string; pageId: string }) {
  const [at, setAt] = useState<number | null>(null);
  const client = useQueryClient();
  const page = client.getQueryData<EditablePage>(editorPageKey(pageId));
  const list = useQuery({ ...templatesQuery(workspaceId, page?.spaceId), enabled: at !== null });
  useEffect(() => {
    const bus = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
    const open = () => setAt(editor.state.selection.from);
    bus.on(TEMPLATE_INSERT_EVENT, open);
    return () => bus.off(TEMPLATE_INSERT_EVENT, open);
  }, [editor]);

  const insert = async (templateId: string, title: string) => {
    const pos = at;
    setAt(null);
    try {
      const query = { fill: 'true' as const, date: localDate(), title: client.getQueryData<EditablePage>(editorPageKey(pageId))?.title || undefined };
      const filled = (await data(api.GET('/api/v1/templates/{templateId}', { params: { path: { templateId }, query } }))) as {
        content: { content?: unknown[] };
      };
      if (editor.isDestroyed) return;
      const where = Math.min(pos ?? editor.state.selection.from, editor.state.doc.content.size);
      editor
        .chain()
        .focus()
        .insertContentAt(where, (filled.content.content ?? []) as never)
        .run();
    } catch (err) {
      notifications.show({ color: 'red', title: `“${title}” could not be put in`, message: messageOf(err) });
    }
  };

  const templates = list.data ?? [];
  return (
    <Modal opened={at !== null} onClose={() => setAt(null)} title="Insert a template" size="sm" returnFocus={false}>
      <Stack gap={2} role="list" aria-label="Templates">
        {templates.length === 0 && (
          <Text size="sm" c="dimmed">
            {list.isPending ? 'Loading…' : 'No templates yet: use “Save as template” on a page.'}
          </Text>
        )}
        {templates.map((t) => (
          <NavLink
            key={t.id}
            role="listitem"
            component="button"
            label={t.title}
            description={t.description ?? (t.spaceId === null ? 'Every space' : undefined)}
            leftSection={<IconMark icon={t.icon} fallback={<IconFileText size={16} aria-hidden />} />}
            onClick={() => void insert(t.id, t.title)}
          />
        ))}
      </Stack>
    </Modal>
  );
}
