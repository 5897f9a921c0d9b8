import { Kbd, Modal, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment } from 'react';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = MAC ? '⌘' : 'Ctrl';
const ALT = MAC ? '⌥' : 'Alt';

type Row = [keys: string[], what: string];

/** What the app and the editor answer to (the editor's keys are Tiptap's defaults plus ours: links, highlight, "/"). */
const GROUPS: { title: string; rows: Row[] }[] = [
  {
    title: 'Anywhere',
    rows: [
      [[MOD, 'K'], 'Search and go to a page'],
      [[MOD, 'P'], 'Search (as in Outline)'],
      [[MOD, 'F'], 'Find and replace, in a page’s text'],
      [['?'], 'This list (outside the text)'],
      [[MOD, '/'], 'This list (also in the text)'],
    ],
  },
  {
    title: 'Text',
    rows: [
      [[MOD, 'B'], 'Bold'],
      [[MOD, 'I'], 'Italic'],
      [[MOD, 'Shift', 'S'], 'Strikethrough'],
      [[MOD, 'E'], 'Inline code'],
      [[MOD, 'Shift', 'H'], 'Highlight'],
      [[MOD, 'K'], 'Link the selection (or edit the link)'],
      [[MOD, 'click'], 'Open a link while editing'],
      [[ALT, 'F10'], 'Move to the selection toolbar'],
    ],
  },
  {
    title: 'Blocks',
    rows: [
      [['/'], 'Insert a block'],
      [['@'], 'Mention a person or a page'],
      [[':sm'], 'Emoji by shortcode (a colon and two letters)'],
      [[ALT, 'Shift', '↑'], 'Move the block up'],
      [[ALT, 'Shift', '↓'], 'Move the block down'],
      [[MOD, ALT, '1…6'], 'Heading 1 to 6'],
      [[MOD, 'Shift', '8'], 'Bulleted list'],
      [[MOD, 'Shift', '7'], 'Numbered list'],
      [[MOD, 'Shift', '9'], 'Checklist'],
      [[MOD, 'Shift', 'B'], 'Quote'],
      [[MOD, ALT, 'C'], 'Code block'],
      [['Shift', 'Enter'], 'Line break'],
      [['Enter'], 'Change the date (a date selected)'],
      [[MOD, 'Z'], 'Undo (your own changes only)'],
      [[MOD, 'Shift', 'Z'], 'Redo'],
    ],
  },
  {
    title: 'Typed Markdown',
    rows: [
      [['#', '##', '###'], 'Headings'],
      [['-', '1.', '[ ]'], 'Lists and checklist'],
      [['>'], 'Quote'],
      [['```'], 'Code block'],
      [['---'], 'Divider'],
      [['$$'], 'Math block'],
      [[':::info'], 'Callout (note, success, warning, danger)'],
      [['**bold**', '==mark=='], 'Bold, highlight'],
      [['[text](url)'], 'Link'],
      [[':smile:'], 'Emoji (😄)'],
    ],
  },
];

function Keys({ keys }: { keys: string[] }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 && ' '}
          <Kbd size="xs">{k}</Kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** The sheet's dialog (its own chunk: loaded on the first open, never with the shell). */
export default function ShortcutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size="xl">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        {GROUPS.map((g) => (
          <Stack key={g.title} gap={4}>
            <Title order={3} size="h5">
              {g.title}
            </Title>
            <Table verticalSpacing={4} aria-label={g.title}>
              <Table.Tbody>
                {g.rows.map(([keys, what]) => (
                  <Table.Tr key={what}>
                    <Table.Td w="45%">
                      <Keys keys={keys} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{what}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
