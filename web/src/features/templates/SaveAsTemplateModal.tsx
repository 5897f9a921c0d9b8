import { Button, Group, Modal, Radio, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { messageOf } from '../../api/errors';
import { useSaveAsTemplate } from './templates.queries';

interface SaveAsTemplateProps {
  page: { id: string; workspaceId: string; spaceId: string; title: string };
  isAdmin: boolean;
  opened: boolean;
  onClose: () => void;
}

/**
 * The "Save as template" dialog, opened from the page's "…" menu. The template copies the page's current content on
 * the server; the name starts as the page's title (the menu mounts the dialog afresh for each opening).
 */
export function SaveAsTemplateModal({ page, isAdmin, opened, onClose }: SaveAsTemplateProps) {
  const [title, setTitle] = useState(page.title);
  const [scope, setScope] = useState<'space' | 'workspace'>('space');
  const save = useSaveAsTemplate();
  const submit = () =>
    save.mutate(
      { workspaceId: page.workspaceId, spaceId: scope === 'space' ? page.spaceId : null, fromPageId: page.id, title: title.trim() || page.title },
      {
        onSuccess: (t) => {
          onClose();
          notifications.show({ message: `Saved as template “${t.title}”` });
        },
        onError: (err) => notifications.show({ color: 'red', title: 'The template could not be saved', message: messageOf(err) }),
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title="Save as template">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput label="Template name" value={title} onChange={(e) => setTitle(e.currentTarget.value)} data-autofocus required maxLength={500} />
          {isAdmin && (
            <Radio.Group label="Offered in" value={scope} onChange={(v) => setScope(v as 'space' | 'workspace')}>
              <Group mt="xs">
                <Radio value="space" label="This space" />
                <Radio value="workspace" label="Every space" />
              </Group>
            </Radio.Group>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save template
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
