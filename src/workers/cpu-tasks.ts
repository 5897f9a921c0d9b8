/**
 * The CPU pool's side: what runs in a worker thread, never on the request thread. Each task takes and returns plain
 * data (it crosses threads by structured clone). An AppError thrown here travels back as `{ appError }` so the
 * request thread can answer it with its code and details (a thrown Error keeps only its message across threads).
 */
import { setPriority } from 'node:os';
import { workerData } from 'piscina';
import { renderExportPages } from '../areas/exports/exports.render.js';
import { convertImportPages } from '../areas/imports/imports.convert.js';
import { chunkDocument, type Passage } from '../areas/knowledge/knowledge.chunk.js';
import { htmlToText } from '../areas/research/sources/html.js';
import { readerContent } from '../areas/shares/reader/reader.content.js';
import { type DocJson, documentToMarkdown, markdownToDocument } from '../editor/index.js';
import { anchorQuote } from '../editor/comment-anchors.js';
import { documentToYState, type LiveSnapshot, outsideWriteToYUpdate, yStateToSnapshot } from '../editor/ydoc.js';
import { embedWithEncoder } from '../embeddings/use-model.js';
import { AppError, type ErrorCode, type ErrorDetails } from '../errors.js';

/**
 * A pool thread runs at a lower CPU priority, CPU_WORKER_NICE (Linux nice values are per thread): when the cores are
 * busy, the request thread (and PGlite on it) is served first, and embedding takes what is left.
 */
try {
  const nice = Number((workerData as { nice?: number } | null)?.nice ?? 0);
  if (nice > 0) setPriority(nice);
} catch {
  // not permitted here (some containers): the thread runs at the process's priority
}

export const cpuTasks = {
  /** Universal Sentence Encoder vectors (the model loads in this thread on first use and lives as long as it). */
  embed: (texts: string[]): Promise<number[][]> => embedWithEncoder(texts),
  /** The passages of each page content, for the knowledge indexer. */
  chunkDocuments: (contents: unknown[]): Passage[][] => contents.map((content) => chunkDocument(content)),
  markdownToDocument: (markdown: string): DocJson => markdownToDocument(markdown),
  documentToMarkdown: (doc: unknown): string => documentToMarkdown(doc),
  /** The title and readable text of a fetched web page (research). */
  htmlToText: (html: string): { title: string; text: string } => htmlToText(html),
  /** Co-editing (editor/ydoc.ts): a page's first Yjs state, a live state as stored JSON, an outside write as a Yjs update. */
  documentToYState: (doc: DocJson): Uint8Array => documentToYState(doc),
  yStateToSnapshot: (input: { state: Uint8Array; stored: DocJson }): LiveSnapshot => yStateToSnapshot(input),
  outsideWriteToYUpdate: (input: { state: Uint8Array; json: DocJson }) => outsideWriteToYUpdate(input),
  anchorQuote: (input: { state: Uint8Array; quote: string }) => anchorQuote(input.state, input.quote),
  /** A batch of exported pages as the text of their files (Markdown with front matter, or HTML). */
  renderExportPages,
  /** A shared page's content as the public reader's sanitized HTML (large pages). */
  readerContent: (doc: DocJson) => readerContent(doc),
  /** A batch of imported files as documents, by their source's `convert`. */
  convertImportPages,
};

export type CpuTasks = typeof cpuTasks;
export type CpuTaskName = keyof CpuTasks;

export interface CpuTaskRequest {
  task: CpuTaskName;
  input: unknown;
}

export type CpuTaskReply = { value: unknown } | { appError: { code: ErrorCode; message: string; details: ErrorDetails; status: number } };

/** The worker's entry point (piscina calls the default export with each task). */
export default async function runCpuTask({ task, input }: CpuTaskRequest): Promise<CpuTaskReply> {
  const fn = cpuTasks[task] as (input: unknown) => unknown;
  if (typeof fn !== 'function') throw new Error(`unknown CPU task ${String(task)}`);
  try {
    return { value: await fn(input) };
  } catch (err) {
    if (err instanceof AppError) return { appError: { code: err.code, message: err.message, details: err.details, status: err.status } };
    throw err;
  }
}
