import { Checkbox, Modal, MultiSelect, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../api/client';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { FormButtons, FormStack } from '../../ui/FormStack';
import { fieldErrorsOf, formLevelError } from '../settings/form-errors';
import { SecretReveal } from './SecretReveal';
import { EVENT_TYPES, type EventType } from './webhooks.queries';

/** Registers an endpoint (URL, events, description), then shows its signing secret once. */
export function NewWebhookModal({
  workspaceId,
  opened,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  opened: boolean;
  onClose(): void;
  onCreated(): Promise<unknown>;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<EventType[]>([]);
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST('/api/v1/webhooks', {
          body: { workspaceId, url: url.trim(), events: all ? ['*'] : events, ...(description.trim() ? { description: description.trim() } : {}) },
        }),
      ),
    onSuccess: () => onCreated(),
  });
  const close = () => {
    setUrl('');
    setDescription('');
    setAll(true);
    setEvents([]);
    create.reset();
    onClose();
  };
  const errors = fieldErrorsOf(create.error);
  const created = create.data;
  return (
    <Modal opened={opened} onClose={close} title={created ? 'Webhook created' : 'New webhook'} centered size="lg">
      {created ? (
        <SecretReveal secret={created.secret} onDone={close} />
      ) : (
        <FormStack onSubmit={() => create.mutate()}>
          <TextInput
            label="Endpoint URL"
            description="An https:// address on the public internet; it receives a signed POST for each event."
            placeholder="https://example.com/hooks/kb"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.url}
            data-autofocus
            required
          />
          <Checkbox label="Send every event type" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
          {!all && (
            <MultiSelect
              label="Events"
              placeholder="Pick event types"
              data={EVENT_TYPES}
              value={events}
              onChange={(v) => setEvents(v as EventType[])}
              error={errors.events}
              searchable
              clearable
            />
          )}
          <TextInput
            label="Description"
            placeholder="What the endpoint is for"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
          <ErrorNotice error={formLevelError(create.error, ['url', 'events', 'description'])} title="Could not create the webhook" />
          <FormButtons submit="Create webhook" onCancel={close} loading={create.isPending} disabled={!url.trim() || (!all && events.length === 0)} />
        </FormStack>
      )}
    </Modal>
  );
}
