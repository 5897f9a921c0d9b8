import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileZip } from '@tabler/icons-react';
import { useState } from 'react';
import { ExportModal } from './ExportModal';
import type { ExportTarget } from './exports.queries';

/** The "Export" action of a space or a page: a button that opens the export dialog. */
export function ExportButton({ target, name, ...button }: { target: ExportTarget; name: string } & ButtonProps) {
  const [opened, modal] = useDisclosure(false);
  // The dialog (a Mantine Modal: portal, overlay, focus trap) is built on the first open, not with the screen.
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileZip size={button.size === 'xs' ? 14 : 16} />}
        onClick={() => {
          setUsed(true);
          modal.open();
        }}
        {...button}
      >
        Export
      </Button>
      {used && <ExportModal opened={opened} onClose={modal.close} target={target} name={name} />}
    </>
  );
}
