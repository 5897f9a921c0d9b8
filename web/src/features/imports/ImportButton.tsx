import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { ImportModal } from './ImportModal';
import type { ImportTarget } from './imports.queries';

/** The "Import" action of a space or a page (the pages go under it): a button that opens the import dialog. */
export function ImportButton({ target, name, spaceSlug, ...button }: { target: ImportTarget; name: string; spaceSlug: string } & ButtonProps) {
  const [opened, modal] = useDisclosure(false);
  // The dialog (a Mantine Modal: portal, overlay, focus trap) is built on the first open, not with the screen.
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileImport size={button.size === 'xs' ? 14 : 16} />}
        onClick={() => {
          setUsed(true);
          modal.open();
        }}
        {...button}
      >
        Import
      </Button>
      {used && <ImportModal opened={opened} onClose={modal.close} target={target} name={name} spaceSlug={spaceSlug} />}
    </>
  );
}
