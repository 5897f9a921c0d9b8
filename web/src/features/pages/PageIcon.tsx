import { Button, Popover, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMoodSmile } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { messageOf } from '../../api/errors';
import { pageKeys } from './pages.queries';
import { personalKeys } from './personal.queries';

/** The picker's emoji, each with the name it is announced by (a screen reader reads the name, not the picture). */
const EMOJI: [string, string][] = [
  ['📄', 'Page'],
  ['📘', 'Blue book'],
  ['📗', 'Green book'],
  ['📕', 'Red book'],
  ['📒', 'Ledger'],
  ['📓', 'Notebook'],
  ['📝', 'Memo'],
  ['📌', 'Pushpin'],
  ['📎', 'Paperclip'],
  ['📊', 'Bar chart'],
  ['📈', 'Chart going up'],
  ['📅', 'Calendar'],
  ['🗂️', 'Card index dividers'],
  ['🗺️', 'Map'],
  ['🧭', 'Compass'],
  ['🎯', 'Target'],
  ['🚀', 'Rocket'],
  ['💡', 'Light bulb'],
  ['🔧', 'Wrench'],
  ['⚙️', 'Gear'],
  ['🛠️', 'Hammer and wrench'],
  ['🧪', 'Test tube'],
  ['🐛', 'Bug'],
  ['🔒', 'Lock'],
  ['🔑', 'Key'],
  ['🛡️', 'Shield'],
  ['⚠️', 'Warning'],
  ['✅', 'Check mark'],
  ['❓', 'Question mark'],
  ['📣', 'Megaphone'],
  ['💬', 'Speech balloon'],
  ['👋', 'Waving hand'],
  ['👥', 'People'],
  ['🤝', 'Handshake'],
  ['🏠', 'House'],
  ['🏢', 'Office building'],
  ['🌍', 'Globe'],
  ['⭐', 'Star'],
  ['🔥', 'Fire'],
  ['🎉', 'Party popper'],
  ['📦', 'Package'],
  ['💰', 'Money bag'],
  ['🧾', 'Receipt'],
  ['🎨', 'Palette'],
  ['🎓', 'Graduation cap'],
  ['🤖', 'Robot'],
  ['☕', 'Hot beverage'],
  ['🌱', 'Seedling'],
];

/**
 * The page's icon before its title: an emoji chosen from a small grid, or any typed or pasted (1–100 characters, as
 * the API takes), or removed. Shown to everyone; changed by people who can edit. The tree and favourites show it too.
 */
export function PageIcon(props: {
  page: { id: string; workspaceId: string; spaceId: string };
  icon: string | null;
  onChange: (icon: string | null) => void;
  canEdit: boolean;
}) {
  const { page, icon, onChange: setIcon, canEdit } = props;
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!icon && !canEdit) return null;
  if (!canEdit)
    return (
      <Text component="span" className="kb-page-icon" role="img" aria-label={`Page icon ${icon}`} w="fit-content">
        {icon}
      </Text>
    );

  const save = async (next: string | null) => {
    const before = icon;
    setIcon(next);
    setOpen(false);
    try {
      await data(api.PUT('/api/v1/pages/{pageId}', { params: { path: { pageId: page.id } }, body: { icon: next } }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: pageKeys.tree(page.spaceId) }),
        queryClient.invalidateQueries({ queryKey: pageKeys.roots(page.spaceId) }),
        queryClient.invalidateQueries({ queryKey: personalKeys.favorites(page.workspaceId) }),
      ]);
    } catch (err) {
      setIcon(before);
      notifications.show({ color: 'red', title: 'Could not change the icon', message: messageOf(err) });
    }
  };

  const target = icon ? (
    <UnstyledButton className="kb-page-icon" aria-label={`Page icon ${icon}: change`} onClick={() => setOpen((o) => !o)} w="fit-content">
      {icon}
    </UnstyledButton>
  ) : (
    <Button
      variant="subtle"
      color="gray"
      size="compact-xs"
      leftSection={<IconMoodSmile size={14} aria-hidden />}
      onClick={() => setOpen((o) => !o)}
      w="fit-content"
    >
      Add icon
    </Button>
  );
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-start" shadow="md" trapFocus withinPortal>
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={272}>
          <SimpleGrid cols={8} spacing={2} role="group" aria-label="Icons">
            {EMOJI.map(([emoji, name]) => (
              <UnstyledButton key={emoji} className="kb-icon-choice" aria-label={name} title={name} onClick={() => void save(emoji)}>
                {emoji}
              </UnstyledButton>
            ))}
          </SimpleGrid>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              const value = typed.trim();
              if (value) void save(value);
            }}
          >
            <TextInput size="xs" label="Or type or paste one" value={typed} maxLength={100} onChange={(e) => setTyped(e.currentTarget.value)} />
          </form>
          {icon && (
            <Button variant="default" size="xs" onClick={() => void save(null)}>
              Remove icon
            </Button>
          )}
          <Text size="xs" c="dimmed">
            Shown before the title, in the tree and in favourites.
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
