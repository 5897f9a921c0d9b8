import { Button, Group, Textarea } from '@mantine/core';
import { getHotkeyHandler } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { ApiError, messageOf } from '../../api/errors';

const MAX = 10_000;

/** The error to show under the text box: the field's own problem when the API names it, else the whole message. */
function fieldMessage(error: unknown): string | null {
  if (!error) return null;
  if (error instanceof ApiError) return error.fieldErrors().text ?? error.message;
  return messageOf(error);
}

/**
 * A text box with its submit button, for a new comment, a reply or an edit. The text stays after a failure so
 * nothing typed is lost; it clears only once the API has accepted it. Ctrl/Cmd-Enter sends.
 */
export function CommentForm({
  label,
  submitLabel,
  initial = '',
  pending,
  error,
  autoFocus,
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  pending: boolean;
  error: unknown;
  autoFocus?: boolean;
  onSubmit: (text: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(initial);
  const [empty, setEmpty] = useState(false);
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!text.trim()) {
      setEmpty(true);
      return;
    }
    try {
      await onSubmit(text);
      setText('');
    } catch {
      // shown under the box from the mutation's error
    }
  };
  const problem = empty && !text.trim() ? 'Write something first.' : fieldMessage(error);
  return (
    <form onSubmit={send}>
      <Textarea
        label={label}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setEmpty(false);
        }}
        onKeyDown={getHotkeyHandler([
          ['mod+Enter', () => void send()],
          ['Escape', () => onCancel?.()],
        ])}
        autosize
        minRows={2}
        maxRows={10}
        maxLength={MAX}
        error={problem}
        autoFocus={autoFocus}
        disabled={pending}
      />
      <Group gap="xs" mt="xs" justify="flex-end">
        {onCancel && (
          <Button variant="subtle" size="xs" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="xs" loading={pending}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
