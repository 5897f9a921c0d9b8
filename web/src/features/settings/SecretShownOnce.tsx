import { Alert, Button, CopyButton, Group, Stack, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A button that copies `value`, then says "Copied" (green) for a moment. */
export function CopyValueButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button variant={copied ? 'light' : 'filled'} color={copied ? 'green' : undefined} onClick={copy}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

/** A secret or one-time link in a read-only monospace field, selected whole on focus. */
export function SecretField({ label, value }: { label: string; value: string }) {
  return (
    <Textarea
      label={label}
      value={value}
      readOnly
      autosize
      minRows={2}
      onFocus={(e) => e.currentTarget.select()}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
    />
  );
}

interface SecretShownOnceProps {
  /** The field's label ("API key", "Signing secret"). */
  label: string;
  secret: string;
  /** The warning's title ("Copy it now"). */
  warning: string;
  /** Why it is shown only now and what to do if it is lost. */
  children: ReactNode;
  onDone(): void;
}

/** A secret the service answers only once (it keeps a hash or will not repeat it): a warning, the secret, Copy and Done. */
export function SecretShownOnce({ label, secret, warning, children, onDone }: SecretShownOnceProps) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title={warning}>
        {children}
      </Alert>
      <SecretField label={label} value={secret} />
      <Group justify="flex-end">
        <CopyValueButton value={secret} />
        <Button variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
