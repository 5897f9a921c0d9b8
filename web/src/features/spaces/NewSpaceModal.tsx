import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormButtons } from '../../ui/FormStack';
import { SegmentedField } from '../../ui/SegmentedField';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { type SpaceSummary, spaceKeys } from './spaces.queries';

/** The "New space" form: name, description and who sees it; the service picks the slug. Opens the space when made. */
export function NewSpaceModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const workspace = useWorkspace();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'private'>('public');
  const create = useMutation({
    mutationFn: async () =>
      (await data(
        api.POST('/api/v1/spaces', {
          body: { workspaceId: workspace.id, name, description: description.trim() || undefined, visibility },
        }),
      )) as SpaceSummary,
    onSuccess: async (space) => {
      await qc.invalidateQueries({ queryKey: spaceKeys.all(workspace.id) });
      close();
      navigate(paths.space(workspace.hostname, space.slug));
    },
  });
  const close = () => {
    setName('');
    setDescription('');
    setVisibility('public');
    create.reset();
    onClose();
  };
  const fields = create.error instanceof ApiError ? create.error.fieldErrors() : {};
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Modal opened={opened} onClose={close} title="New space">
      <form onSubmit={submit}>
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required data-autofocus error={fields.name} maxLength={200} />
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            autosize
            minRows={2}
            error={fields.description}
          />
          <SegmentedField
            label="Visibility"
            value={visibility}
            onChange={setVisibility}
            data={[
              { value: 'public', label: 'Public' },
              { value: 'private', label: 'Private' },
            ]}
            description={visibility === 'public' ? 'Every member of the workspace can see it.' : 'Only the people you add (and workspace admins) can see it.'}
          />
          <ErrorNotice error={Object.keys(fields).length ? null : create.error} title="Could not create the space" />
          <FormButtons submit="Create space" onCancel={close} loading={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
