import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import { CliError } from '../common.js';
import { ApiError, type HttpClient } from '../sync/client.js';
import { formatBytes, type Reporter } from '../sync/progress.js';
import { withJobSession } from './job-session.js';

/** `kb import`: a zip of Markdown or HTML (Notion, Confluence, Obsidian, kb's own export) or one file, into a space. */

const SOURCES = ['auto', 'markdown', 'html', 'notion', 'confluence', 'obsidian'] as const;
const EXTENSIONS = ['.zip', '.md', '.markdown', '.html'];
const POLL_MS = 500;

interface ImportOptions {
  workspace: string;
  space: string;
  parent?: string;
  source: (typeof SOURCES)[number];
}

/** The import record the API answers with (the fields used here). */
interface ImportRecord {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  detectedSource: string | null;
  progress: { done: number; total: number };
  result: { pages: number; attachments: number; rootPageIds: string[] } | null;
  warnings: Array<{ path: string; message: string }>;
  error: { code: string; message: string; details: Record<string, unknown> } | null;
}

/** What `kb import` learned: the finished import, for the summary. */
export type FinishedImport = ImportRecord & { result: NonNullable<ImportRecord['result']> };

async function checkFile(file: string) {
  if (!EXTENSIONS.includes(path.extname(file).toLowerCase())) throw new CliError(`${file}: not a .zip, .md, .markdown or .html file`);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new CliError(`${file}: no such file`);
  return info.size;
}

/**
 * Sends the file as `multipart/form-data` (the text fields first, then the part `file`), streamed from disk: the
 * form is encoded lazily by `Response` and counted as fetch pulls it, which is the upload's progress. Not retried: a
 * POST that may have reached the service is not sent twice.
 */
async function upload(server: string, token: string, fields: Record<string, string>, file: string, size: number, reporter: Reporter, signal: AbortSignal) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', await openAsBlob(file), path.basename(file));
  const encoded = new Response(form);
  let sent = 0;
  let shown = -1;
  reporter.start('uploading', size);
  const counted = (encoded.body as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        // the form's own boundaries and headers are a few hundred bytes beyond the file's size
        const done = Math.min(sent, size);
        if (done !== shown) reporter.update(done, done);
        shown = done;
        controller.enqueue(chunk);
      },
    }),
  );
  let res: Response;
  try {
    res = await fetch(`${server}/api/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': encoded.headers.get('content-type') as string },
      body: counted,
      duplex: 'half',
      signal,
    } as RequestInit);
  } catch (err) {
    if (signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach ${server}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  reporter.finish();
  const body = (await res.json().catch(() => undefined)) as
    | { data?: ImportRecord; error?: { code?: string; message?: string; details?: Record<string, unknown> } }
    | undefined;
  if (!res.ok || !body?.data) throw new ApiError(res.status, body?.error?.code ?? 'HTTP_ERROR', body?.error?.message ?? res.statusText, body?.error?.details);
  return body.data;
}

/** Polls the import until it has succeeded (returned) or failed (thrown), moving the progress bar as it goes. */
async function waitForImport(http: HttpClient, started: ImportRecord, reporter: Reporter, signal: AbortSignal): Promise<FinishedImport> {
  let record = started;
  let counted = false;
  for (;;) {
    if (!counted && record.progress.total > 0) {
      reporter.start('importing', record.progress.total);
      counted = true;
    }
    if (counted) reporter.update(record.progress.done);
    if (record.status === 'succeeded' && record.result) return record as FinishedImport;
    if (record.status === 'failed') {
      reporter.finish();
      printWarnings(record, reporter);
      const error = record.error;
      throw new CliError(`the import failed: ${error ? `${error.message} (${error.code})` : 'no reason given'}`);
    }
    await sleep(POLL_MS, undefined, { signal });
    record = (await http.get<{ data: ImportRecord }>(`/v1/imports/${encodeURIComponent(record.id)}`)).data;
  }
}

function printWarnings(record: ImportRecord, reporter: Reporter) {
  for (const w of record.warnings) reporter.warn(`${w.path}: ${w.message}`);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The finished import, or null when stopped by Ctrl-C (exit code 130; an import already sent keeps running). */
export async function runImport(file: string, opts: ImportOptions): Promise<FinishedImport | null> {
  const size = await checkFile(file);
  return withJobSession(opts.workspace, async ({ creds, reporter, http, signal }) => {
    const fields = { workspaceId: opts.workspace, spaceId: opts.space, ...(opts.parent ? { parentPageId: opts.parent } : {}), source: opts.source };
    const started = await upload(creds.server, creds.token, fields, file, size, reporter, signal);
    reporter.info(`uploaded ${formatBytes(size)}; import ${started.id} started`);
    const done = await waitForImport(http, started, reporter, signal);
    reporter.finish();
    printWarnings(done, reporter);
    const read = done.detectedSource ? ` (read as ${done.detectedSource})` : '';
    reporter.info(`imported ${plural(done.result.pages, 'page')} and ${plural(done.result.attachments, 'attachment')}${read}`);
    return done;
  });
}

export function registerImport(program: Command) {
  program
    .command('import')
    .description('Import a zip of Markdown or HTML pages, or one .md/.html file, into a space (run `kb login` first)')
    .argument('<file>', 'a .zip (Markdown, HTML, a Notion, Confluence or Obsidian export, or a kb export), .md, .markdown or .html file')
    .requiredOption('--workspace <id>', 'the workspace id')
    .requiredOption('--space <id>', 'the space the pages go into')
    .option('--parent <pageId>', 'put the imported pages under this page (default: at the top of the space)')
    .addOption(new Option('--source <source>', 'what made the file (auto tells them apart)').choices(SOURCES).default('auto'))
    .addHelpText(
      'after',
      [
        '',
        'Prints the ids of the top imported pages on stdout, one a line; progress, warnings and the summary go to stderr.',
        'What each source keeps is in docs/imports.md.',
        '',
        'Examples:',
        '  kb import notion-export.zip --workspace W --space S',
        '  kb import notes.md --workspace W --space S --parent P',
      ].join('\n'),
    )
    .action(async (file: string, opts: ImportOptions) => {
      const done = await runImport(file, opts);
      if (done) for (const id of done.result.rootPageIds) console.log(id);
    });
}
