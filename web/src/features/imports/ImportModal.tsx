import { Button, FileInput, Group, List, Modal, Progress, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { IconFileImport, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { formatSize } from '../../ui/format-size';
import { paths, useWorkspace } from '../workspaces/workspace-context';
import { importProgressText, plural } from './import-words';
import {
  IMPORT_ACCEPT,
  type ImportJob,
  type ImportSource,
  type ImportTarget,
  type UploadProgress,
  useFirstImportedPage,
  useImportJob,
  useStartImport,
} from './imports.queries';

interface ImportModalProps {
  opened: boolean;
  onClose(): void;
  target: ImportTarget;
  /** The space's or the parent page's name, for the title. */
  name: string;
  /** The space's slug, for the link to the imported pages. */
  spaceSlug: string;
}

const SOURCES: Array<{ value: ImportSource; label: string }> = [
  { value: 'auto', label: 'Automatic' },
  { value: 'markdown', label: 'Markdown files (or a kb export)' },
  { value: 'html', label: 'HTML files' },
  { value: 'notion', label: 'Notion export' },
  { value: 'confluence', label: 'Confluence space export' },
  { value: 'obsidian', label: 'Obsidian vault' },
];

/** Import a zip or one page into a space or under a page: choose the file, upload it, watch the job, open the result. */
export function ImportModal({ opened, onClose, target, name, spaceSlug }: ImportModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<ImportSource>('auto');
  const start = useStartImport(target);
  const job = useImportJob(start.data);
  const startOver = () => {
    start.reset();
    setFile(null);
    setSource('auto');
  };
  const close = () => {
    startOver();
    onClose();
  };
  const under = target.parentPageId ? 'under' : 'into';
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={`Import ${under} “${name || 'Untitled'}”`}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close the import dialog' }}
    >
      {job.data ? (
        <ImportOutcome job={job.data} error={job.error} spaceSlug={spaceSlug} onClose={close} onAgain={startOver} />
      ) : start.isPending && start.upload ? (
        <Uploading upload={start.upload} filename={file?.name ?? ''} onCancel={startOver} />
      ) : (
        <Stack>
          <FileInput
            label="File"
            description="A .zip of Markdown or HTML pages (from Notion, Confluence, Obsidian or a kb export), or one .md or .html page"
            placeholder="Choose a file"
            accept={IMPORT_ACCEPT}
            value={file}
            onChange={(chosen) => {
              // a refusal is about the file it names: choosing another clears it
              start.reset();
              setFile(chosen);
            }}
            clearable
            leftSection={<IconFileImport size={16} />}
          />
          <Select
            label="Made by"
            description="Automatic tells the sources apart; choose one if it guesses wrong"
            data={SOURCES}
            value={source}
            onChange={(v) => setSource((v as ImportSource | null) ?? 'auto')}
            allowDeselect={false}
          />
          <Text size="xs" c="dimmed">
            {target.parentPageId
              ? `The pages go under “${name || 'Untitled'}”, folders becoming pages with pages under them.`
              : 'The pages go at the top of the space, folders becoming pages with pages under them.'}
          </Text>
          <ErrorNotice error={start.error} title="The file was not accepted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button leftSection={<IconUpload size={16} />} onClick={() => file && start.mutate({ file, source })} disabled={!file}>
              Import
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function Uploading({ upload, filename, onCancel }: { upload: UploadProgress; filename: string; onCancel(): void }) {
  const percent = upload.total > 0 ? Math.round((upload.sent / upload.total) * 100) : 0;
  return (
    <Stack>
      <Progress value={percent} aria-label="Upload progress" animated />
      <Text size="sm" c="dimmed" aria-live="polite">
        Uploading {filename}: {formatSize(upload.sent)} of {formatSize(upload.total)}…
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Stop
        </Button>
      </Group>
    </Stack>
  );
}

interface OutcomeProps {
  job: ImportJob;
  error: unknown;
  spaceSlug: string;
  onClose(): void;
  onAgain(): void;
}

function ImportOutcome({ job, error, spaceSlug, onClose, onAgain }: OutcomeProps) {
  const { done, total } = job.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Stack>
      {job.status === 'failed' ? (
        <ErrorNotice error={new Error(job.error?.message ?? 'The import failed.')} title="The import failed; nothing was imported" />
      ) : (
        <>
          <Progress value={job.status === 'succeeded' ? 100 : percent} aria-label="Import progress" animated={job.status !== 'succeeded'} />
          <Text size="sm" c="dimmed" aria-live="polite">
            {importProgressText(job)}
          </Text>
        </>
      )}
      {job.warnings.length > 0 && <Warnings warnings={job.warnings} />}
      <ErrorNotice error={error} title="The import’s progress could not be read" />
      <Group justify="flex-end">
        {job.status === 'failed' && (
          <Button variant="default" onClick={onAgain}>
            Try another file
          </Button>
        )}
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        {job.status === 'succeeded' && <FirstPageLink job={job} spaceSlug={spaceSlug} onOpen={onClose} />}
      </Group>
    </Stack>
  );
}

function Warnings({ warnings }: { warnings: ImportJob['warnings'] }) {
  return (
    <Stack gap={4} role="region" aria-label="Not carried over">
      <Text size="sm" fw={600}>
        Not carried over ({plural(warnings.length, 'note')})
      </Text>
      <ScrollArea.Autosize mah={200} type="auto">
        <List size="sm" spacing={2}>
          {warnings.map((w, i) => (
            // the same file may be named twice; the list never changes order once finished
            // biome-ignore lint/suspicious/noArrayIndexKey: warnings have no id of their own
            <List.Item key={i}>
              {w.path && (
                <Text span ff="monospace" size="xs">
                  {w.path}
                </Text>
              )}
              {w.path ? ': ' : ''}
              {w.message}
            </List.Item>
          ))}
        </List>
      </ScrollArea.Autosize>
    </Stack>
  );
}

function FirstPageLink({ job, spaceSlug, onOpen }: { job: ImportJob; spaceSlug: string; onOpen(): void }) {
  const workspace = useWorkspace();
  const first = useFirstImportedPage(job);
  const id = job.result?.rootPageIds[0];
  if (!id) return null;
  const title = first.data?.title;
  return (
    <Button component={Link} to={paths.page(workspace.hostname, spaceSlug, { id, slug: first.data?.slug })} onClick={onOpen}>
      {title ? `Open “${title}”` : 'Open the imported page'}
    </Button>
  );
}
