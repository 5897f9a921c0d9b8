import { Button, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileText, IconTemplate } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { messageOf } from '../../api/errors';
import { templatesQuery, usePageFromTemplate } from './templates.queries';

/**
 * "From template": beside "New page" (the blank page), the templates usable in the space; picking one makes the page
 * on the server with `{{date}}`, `{{author}}` and `{{title}}` filled, then `onCreated` opens it.
 */
export function TemplatePicker({
  workspaceId,
  spaceId,
  parentId = null,
  onCreated,
}: {
  workspaceId: string;
  spaceId: string;
  parentId?: string | null;
  onCreated: (page: { id: string; title: string; slug: string }) => void;
}) {
  const list = useQuery({ ...templatesQuery(workspaceId, spaceId), enabled: true });
  const create = usePageFromTemplate();
  const templates = list.data ?? [];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconTemplate size={16} />} loading={create.isPending}>
          From template
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>New page from a template</Menu.Label>
        {templates.length === 0 && (
          <Text size="sm" c="dimmed" px="sm" py={6} maw={240}>
            {list.isPending ? 'Loading…' : 'No templates yet: use “Save as template” on a page.'}
          </Text>
        )}
        {templates.map((t) => (
          <Menu.Item
            key={t.id}
            leftSection={t.icon ? <span aria-hidden>{t.icon}</span> : <IconFileText size={14} aria-hidden />}
            onClick={() =>
              create.mutate(
                { templateId: t.id, spaceId, parentId },
                {
                  onSuccess: (p) => onCreated(p as { id: string; title: string; slug: string }),
                  onError: (err) => notifications.show({ color: 'red', title: 'The page could not be made', message: messageOf(err) }),
                },
              )
            }
          >
            {t.title}
            {t.spaceId === null && (
              <Text span size="xs" c="dimmed">
                {' '}
                · every space
              </Text>
            )}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
