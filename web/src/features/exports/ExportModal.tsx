import { Button, Checkbox, Group, Modal, Progress, Radio, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { formatSize } from '../../ui/format-size';
import { type ExportChoices, type ExportJob, type ExportTarget, useExportJob, useStartExport } from './exports.queries';

interface ExportModalProps {
  opened: boolean;
  onClose(): void;
  target: ExportTarget;
  /** The space's or page's name, for the title. */
  name: string;
}

const DEFAULTS: ExportChoices = { format: 'markdown', includeChildren: true, includeAttachments: true };

/** Export a space or a page as a zip: choose the format and what goes in, watch the job, then download the file. */
export function ExportModal({ opened, onClose, target, name }: ExportModalProps) {
  const [choices, setChoices] = useState(DEFAULTS);
  const start = useStartExport(target);
  const job = useExportJob(start.data);
  const close = () => {
    start.reset();
    setChoices(DEFAULTS);
    onClose();
  };
  const set = (patch: Partial<ExportChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const isPage = 'pageId' in target;
  return (
    <Modal opened={opened} onClose={close} title={`Export “${name || 'Untitled'}”`} centered>
      {job.data ? (
        <ExportProgress job={job.data} error={job.error} onDone={close} />
      ) : (
        <Stack>
          <Radio.Group label="Format" value={choices.format} onChange={(v) => set({ format: v as ExportChoices['format'] })}>
            <Group mt={4}>
              <Radio value="markdown" label="Markdown" />
              <Radio value="html" label="HTML" />
            </Group>
          </Radio.Group>
          {isPage && (
            <Checkbox
              label="Include the pages under it"
              checked={choices.includeChildren}
              onChange={(e) => set({ includeChildren: e.currentTarget.checked })}
            />
          )}
          <Checkbox label="Include attachments" checked={choices.includeAttachments} onChange={(e) => set({ includeAttachments: e.currentTarget.checked })} />
          <Text size="xs" c="dimmed">
            A zip of {choices.format === 'html' ? '.html' : '.md'} files, one per page, in folders like the page tree.
          </Text>
          <ErrorNotice error={start.error} title="The export could not start" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => start.mutate(choices)} loading={start.isPending}>
              Export
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function ExportProgress({ job, error, onDone }: { job: ExportJob; error: unknown; onDone(): void }) {
  const { done, total } = job.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Stack>
      {job.status === 'failed' ? (
        <ErrorNotice error={new Error(job.error ?? 'The export failed.')} title="The export failed" />
      ) : (
        <>
          <Progress value={job.status === 'succeeded' ? 100 : percent} aria-label="Export progress" animated={job.status !== 'succeeded'} />
          <Text size="sm" c="dimmed" aria-live="polite">
            {job.status === 'succeeded'
              ? `Ready: ${total === 1 ? '1 page' : `${total} pages and attachments`}, ${formatSize(job.size ?? 0)}.`
              : total > 0
                ? `${done} of ${total} pages and attachments written…`
                : 'Waiting to start…'}
          </Text>
        </>
      )}
      <ErrorNotice error={error} title="The export’s progress could not be read" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Close
        </Button>
        {job.status === 'succeeded' && job.downloadUrl && (
          <Button component="a" href={job.downloadUrl} download={job.filename} leftSection={<IconDownload size={16} />}>
            Download {job.filename}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
