import { Button, Group, NativeSelect, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { useSpaces } from '../spaces/spaces.queries';
import { type Goal, type GoalInput, HORIZONS, type Horizon } from './goals.queries';

/** A goal's fields. The space is chosen once, at creation (the API does not move goals between spaces). */
export function GoalForm(props: {
  ws: string;
  goal?: Goal;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: GoalInput) => void;
  onCancel: () => void;
}) {
  const { goal } = props;
  const [title, setTitle] = useState(goal?.title ?? '');
  const [horizon, setHorizon] = useState<Horizon>(goal?.horizon ?? 'short');
  const [description, setDescription] = useState(goal?.description ?? '');
  const [keywords, setKeywords] = useState<string[]>(goal?.keywords ?? []);
  const [spaceId, setSpaceId] = useState('');
  const [titleError, setTitleError] = useState<string | null>(null);
  const spaces = useSpaces(props.ws);
  const fields = props.error instanceof ApiError ? props.error.fieldErrors() : {};

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return setTitleError('A goal needs a title.');
    setTitleError(null);
    props.onSubmit({ title: title.trim(), horizon, description: description.trim() || null, keywords, ...(goal ? {} : { spaceId: spaceId || null }) });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="Title" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={titleError ?? fields.title} data-autofocus />
        <NativeSelect
          label="Horizon"
          value={horizon}
          onChange={(e) => setHorizon(e.currentTarget.value as Horizon)}
          data={HORIZONS.map((h) => ({ value: h.value, label: `${h.label} (${h.hint})` }))}
          error={fields.horizon}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fields.description}
        />
        <TagsInput label="Keywords" description="Press Enter after each keyword" value={keywords} onChange={setKeywords} error={fields.keywords} />
        {!goal && (
          <NativeSelect
            label="Space"
            value={spaceId}
            onChange={(e) => setSpaceId(e.currentTarget.value)}
            data={[{ value: '', label: 'The whole workspace' }, ...(spaces.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
            error={fields.spaceId}
          />
        )}
        {Object.keys(fields).length === 0 && <ErrorNotice error={props.error} title="The goal was not saved" />}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={props.pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
