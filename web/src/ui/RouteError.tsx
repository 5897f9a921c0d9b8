import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { messageOf } from '../api/errors';

/** What a person sees when a screen fails to load or a URL leads nowhere. */
export function RouteError({ notFound = false }: { notFound?: boolean }) {
  const error = useRouteError();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center">
        <Title order={1}>{notFound ? 'Nothing here' : 'This screen failed to load'}</Title>
        <Text c="dimmed">{notFound ? 'The address does not lead to a page of this app.' : messageOf(error)}</Text>
        <Button component={Link} to="/">
          Go home
        </Button>
      </Stack>
    </Center>
  );
}
