import { Alert } from '@mantine/core';
import { messageOf } from '../api/errors';

/** An API error shown in words, near what caused it. */
export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      {messageOf(error)}
    </Alert>
  );
}
