import { Center, Loader } from '@mantine/core';

export function ScreenLoader() {
  return (
    <Center h="40vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
