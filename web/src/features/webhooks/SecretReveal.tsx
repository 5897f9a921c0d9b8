import { Alert, Button, CopyButton, Group, Stack, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** A signing secret, shown once (the service never answers it again), with a copy button. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone(): void }) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />} title="Copy the signing secret now">
        It will not be shown again. Your endpoint verifies each delivery’s <code>webhook-signature</code> with it (Standard Webhooks); if you lose it, rotate
        it.
      </Alert>
      <Textarea
        label="Signing secret"
        value={secret}
        readOnly
        autosize
        minRows={2}
        onFocus={(e) => e.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
      />
      <Group justify="flex-end">
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Button variant={copied ? 'light' : 'filled'} color={copied ? 'green' : undefined} onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
