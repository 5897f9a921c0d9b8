import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { link, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import { CliError } from '../common.js';
import { ApiError, type HttpClient } from '../sync/client.js';
import { formatBytes, type Reporter } from '../sync/progress.js';
import { withJobSession } from './job-session.js';

/** `kb export`: a space or a page tree as a zip, through the exports API (docs/exports.md) with the `kb login` credentials. */

interface ExportOptions {
  workspace: string;
  space?: string;
  page?: string;
  format: 'markdown' | 'html';
  children: boolean;
  attachments: boolean;
  out?: string;
  force?: boolean;
}

const POLL_MS = 500;

/** The export record the API answers with (the fields used here). */
interface ExportRecord {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: { done: number; total: number };
  error: string | null;
  size: number | null;
  sha256: string | null;
  filename: string;
  downloadUrl: string | null;
}

function refuseToOverwrite(file: string, force: boolean | undefined) {
  if (!force && existsSync(file)) throw new CliError(`${file} already exists: pass --force to overwrite it, or --out another file`);
}

/** Polls the export until it has succeeded (returned) or failed (thrown), moving the progress bar as it goes. */
async function waitForExport(http: HttpClient, started: ExportRecord, reporter: Reporter, signal: AbortSignal) {
  let record = started;
  let counted = false;
  for (;;) {
    if (!counted && record.progress.total > 0) {
      reporter.start('exporting', record.progress.total);
      counted = true;
    }
    if (counted) reporter.update(record.progress.done);
    if (record.status === 'succeeded') return record;
    if (record.status === 'failed') throw new CliError(`the export failed: ${record.error ?? 'no reason given'}`);
    await sleep(POLL_MS, undefined, { signal });
    record = (await http.get<{ data: ExportRecord }>(`/v1/exports/${encodeURIComponent(record.id)}`)).data;
  }
}

/** Streams the zip into `<file>.part`, checks its size and SHA-256 against the record, then moves it into place. */
async function download(server: string, token: string, record: ExportRecord, file: string, force: boolean | undefined, signal: AbortSignal) {
  const res = await fetch(`${server}${record.downloadUrl}`, { headers: { authorization: `Bearer ${token}` }, signal });
  if (!res.ok || !res.body) {
    const error = ((await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(res.status, error?.code ?? 'HTTP_ERROR', error?.message ?? res.statusText);
  }
  const part = `${file}.part`;
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), count, createWriteStream(part), { signal });
    const sha256 = hash.digest('hex');
    if ((record.size !== null && bytes !== record.size) || (record.sha256 && sha256 !== record.sha256))
      throw new CliError(`the download was damaged (${bytes} of ${record.size} bytes, SHA-256 ${sha256}): run the export again`);
    if (force) await rename(part, file);
    else {
      // link() refuses an existing name: a file that appeared meanwhile is never overwritten
      await link(part, file).catch((err: NodeJS.ErrnoException) => {
        throw err.code === 'EEXIST' ? new CliError(`${file} already exists: pass --force to overwrite it`) : err;
      });
      await rm(part);
    }
  } finally {
    await rm(part, { force: true });
  }
  return bytes;
}

/** The zip's path, or null when stopped by Ctrl-C (exit code 130; a partly downloaded file is removed). */
export async function runExport(opts: ExportOptions): Promise<string | null> {
  if (!opts.space === !opts.page) throw new CliError('give exactly one of --space and --page');
  if (opts.space && !opts.children) throw new CliError('--no-children applies to --page only');
  if (opts.out) refuseToOverwrite(path.resolve(opts.out), opts.force);
  return withJobSession(opts.workspace, async ({ creds, reporter, http, signal }) => {
    const body = {
      workspaceId: opts.workspace,
      ...(opts.space ? { spaceId: opts.space } : { pageId: opts.page, includeChildren: opts.children }),
      format: opts.format,
      includeAttachments: opts.attachments,
    };
    const started = (await http.post<{ data: ExportRecord }>('/v1/exports', body)).data;
    const file = path.resolve(opts.out ?? started.filename);
    refuseToOverwrite(file, opts.force);
    reporter.info(`export ${started.id} started`);
    const done = await waitForExport(http, started, reporter, signal);
    reporter.finish();
    const bytes = await download(creds.server, creds.token, done, file, opts.force, signal);
    reporter.info(`downloaded ${formatBytes(bytes)} (${done.progress.total} pages and attachments)`);
    return file;
  });
}

export function registerExport(program: Command) {
  program
    .command('export')
    .description('Export a space or a page tree as a zip of Markdown or HTML files (run `kb login` first)')
    .requiredOption('--workspace <id>', 'the workspace id')
    .option('--space <id>', 'export this whole space')
    .option('--page <id>', 'export this page (and the pages under it)')
    .addOption(new Option('--format <format>', 'markdown (.md with front matter) or html').choices(['markdown', 'html']).default('markdown'))
    .option('--no-children', 'with --page: that page alone, not the pages under it')
    .option('--no-attachments', 'leave the attachments out')
    .option('--out <file>', 'where to write the zip (default: <space or page name>.zip in the current folder)')
    .option('--force', 'overwrite the file if it exists')
    .addHelpText(
      'after',
      [
        '',
        'Prints the zip’s path on stdout; progress goes to stderr. The layout of the zip is in docs/exports.md.',
        '',
        'Examples:',
        '  kb export --workspace W --space S',
        '  kb export --workspace W --page P --format html --no-attachments --out page.zip',
      ].join('\n'),
    )
    .action(async (opts: ExportOptions) => {
      const file = await runExport(opts);
      if (file) console.log(file);
    });
}
