import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';

interface ConfirmModalProps {
  opened: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** When set, the person must type this exact text before the action is offered (irreversible actions). */
  typeToConfirm?: string;
  onConfirm(): Promise<unknown>;
}

/** Asks before a destructive action; shows the API's error inside the dialog rather than closing on failure. */
export function ConfirmModal({ opened, onClose, title, children, confirmLabel, typeToConfirm, onConfirm }: ConfirmModalProps) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setTyped('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const ready = typeToConfirm === undefined || typed === typeToConfirm;
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Text size="sm">{children}</Text>
        {typeToConfirm !== undefined && (
          <TextInput
            label={`Type “${typeToConfirm}” to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
        )}
        <ErrorNotice error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} loading={busy} disabled={!ready}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A ConfirmModal about one item of a list (revoke a key, delete a webhook): open while `item` is set. */
export function ConfirmItemModal<T>({
  item,
  onConfirm,
  ...props
}: Omit<ConfirmModalProps, 'opened' | 'onConfirm'> & { item: T | null; onConfirm(item: T): Promise<unknown> }) {
  return <ConfirmModal {...props} opened={item !== null} onConfirm={async () => item !== null && onConfirm(item)} />;
}
