import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileZip } from '@tabler/icons-react';
import { ExportModal } from './ExportModal';
import type { ExportTarget } from './exports.queries';

/** The "Export" action of a space or a page: a button that opens the export dialog. */
export function ExportButton({ target, name, ...button }: { target: ExportTarget; name: string } & ButtonProps) {
  const [opened, modal] = useDisclosure(false);
  return (
    <>
      <Button variant="default" leftSection={<IconFileZip size={button.size === 'xs' ? 14 : 16} />} onClick={modal.open} {...button}>
        Export
      </Button>
      <ExportModal opened={opened} onClose={modal.close} target={target} name={name} />
    </>
  );
}
