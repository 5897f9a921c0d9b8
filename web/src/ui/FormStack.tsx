import { Button, Group, Stack, type StackProps } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

interface FormStackProps extends StackProps {
  /** Called on submit (Enter in a field, or the submit button), after the browser's own submit is prevented. */
  onSubmit(): void;
  'aria-label'?: string;
  children: ReactNode;
}

/** A form laid out as a Stack, submitted in the page (no navigation). */
export function FormStack({ onSubmit, children, ...props }: FormStackProps) {
  return (
    <Stack
      component="form"
      {...props}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </Stack>
  );
}

/** A dialog form's last row: Cancel, then the submit button. */
export function FormButtons({ submit, onCancel, loading, disabled }: { submit: string; onCancel(): void; loading?: boolean; disabled?: boolean }) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={loading} disabled={disabled}>
        {submit}
      </Button>
    </Group>
  );
}
