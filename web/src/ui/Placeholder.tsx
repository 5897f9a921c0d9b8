import { Stack, Text, Title } from '@mantine/core';

/** A screen still being built (lets routes exist before their screens). */
export function Placeholder({ title }: { title: string }) {
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Text c="dimmed">This screen is being built.</Text>
    </Stack>
  );
}
