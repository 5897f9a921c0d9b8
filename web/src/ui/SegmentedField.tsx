import { SegmentedControl, Stack, Text } from '@mantine/core';
import { type ReactNode, useId } from 'react';

interface SegmentedFieldProps<T extends string> {
  /** Names the control, as a field label would (SegmentedControl has none of its own). */
  label: string;
  value: T;
  onChange(value: NoInfer<T>): void;
  data: { value: NoInfer<T>; label: string }[];
  /** Small dimmed text under the control. */
  description?: ReactNode;
}

/** A labelled choice among a few options, laid out like the form's other fields. */
export function SegmentedField<T extends string>({ label, value, onChange, data, description }: SegmentedFieldProps<T>) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={id} value={value} onChange={(v) => onChange(v as T)} data={data} />
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
    </Stack>
  );
}
