import { type PageToRender, type RenderFormat, renderExportPages } from '../areas/exports/exports.render.js';
import { type ConvertInput, type ConvertOutput, convertImportPages } from '../areas/imports/imports.convert.js';
import { htmlToText } from '../areas/research/sources/html.js';
import { type ReaderContent, readerContent } from '../areas/shares/reader/reader.content.js';
import type { DocJson } from '../editor/index.js';
import { documentToMarkdown, markdownToDocument } from '../editor/index.js';
import { anchorQuote } from '../editor/comment-anchors.js';
import { documentToYState, type LiveSnapshot, outsideWriteToYUpdate, yStateToSnapshot } from '../editor/ydoc.js';
import { type CpuPoolSettings, runCpuTask } from './pool.js';

/**
 * Inputs from this size (bytes of Markdown, or about that much document) are converted on the CPU pool; smaller ones
 * inline, where a conversion costs less than the trip to another thread.
 */
export const OFFLOAD_MIN_BYTES = 64 * 1024;

/** Markdown → document JSON, off the request thread when the Markdown is large. */
export function markdownToDocumentOffThread(settings: CpuPoolSettings, markdown: string): Promise<DocJson> {
  if (markdown.length < OFFLOAD_MIN_BYTES / 4 || Buffer.byteLength(markdown) < OFFLOAD_MIN_BYTES) return Promise.resolve(markdownToDocument(markdown));
  return runCpuTask(settings, 'markdownToDocument', markdown);
}

/** Document → Markdown, off the request thread when the document is large. */
export async function documentToMarkdownOffThread(settings: CpuPoolSettings, doc: unknown): Promise<string> {
  return atLeast(doc, OFFLOAD_MIN_BYTES) ? runCpuTask(settings, 'documentToMarkdown', doc) : documentToMarkdown(doc);
}

/** HTML → title and text (a fetched web page), off the thread when the page is large; background work (research). */
export function htmlToTextOffThread(settings: CpuPoolSettings, html: string, signal?: AbortSignal): Promise<{ title: string; text: string }> {
  if (html.length < OFFLOAD_MIN_BYTES / 4 || Buffer.byteLength(html) < OFFLOAD_MIN_BYTES) return Promise.resolve(htmlToText(html));
  return runCpuTask(settings, 'htmlToText', html, { signal, priority: 'background' });
}

/** A page's first Yjs state (co-editing), off the thread when the page is large. */
export function documentToYStateOffThread(settings: CpuPoolSettings, doc: DocJson): Promise<Uint8Array> {
  return atLeast(doc, OFFLOAD_MIN_BYTES) ? runCpuTask(settings, 'documentToYState', doc) : Promise.resolve(documentToYState(doc));
}

/** A live document's state as the page stores it (JSON checked like a REST write, and its text); large ones off the thread. */
export function yStateToSnapshotOffThread(settings: CpuPoolSettings, input: { state: Uint8Array; stored: DocJson }): Promise<LiveSnapshot> {
  return input.state.byteLength >= OFFLOAD_MIN_BYTES / 2 ? runCpuTask(settings, 'yStateToSnapshot', input) : Promise.resolve(yStateToSnapshot(input));
}

/** A write from outside as a Yjs update against the stored state; large pages off the thread. */
export function outsideWriteToYUpdateOffThread(settings: CpuPoolSettings, input: { state: Uint8Array; json: DocJson }) {
  const large = input.state.byteLength >= OFFLOAD_MIN_BYTES / 2 || atLeast(input.json, OFFLOAD_MIN_BYTES);
  return large ? runCpuTask(settings, 'outsideWriteToYUpdate', input) : Promise.resolve(outsideWriteToYUpdate(input));
}

/** A comment's range: the first occurrence of `quote` in a live document's state; large pages off the thread. */
export function anchorQuoteOffThread(settings: CpuPoolSettings, input: { state: Uint8Array; quote: string }) {
  return input.state.byteLength >= OFFLOAD_MIN_BYTES / 2 ? runCpuTask(settings, 'anchorQuote', input) : Promise.resolve(anchorQuote(input.state, input.quote));
}

/** A batch of exported pages as file text; on the background lane once the batch is large, or HTML (slower per page). */
export function renderExportPagesOffThread(
  settings: CpuPoolSettings,
  input: { format: RenderFormat; pages: PageToRender[] },
  signal?: AbortSignal,
): Promise<string[]> {
  const large = (input.format === 'html' && input.pages.length > 8) || atLeast({ content: input.pages.map((p) => p.doc) }, OFFLOAD_MIN_BYTES);
  return large ? runCpuTask(settings, 'renderExportPages', input, { signal, priority: 'background' }) : Promise.resolve(renderExportPages(input));
}

/** A shared page as the public reader's HTML, off the request thread when the page is large. */
export function readerContentOffThread(settings: CpuPoolSettings, doc: DocJson): Promise<ReaderContent> {
  return atLeast(doc, OFFLOAD_MIN_BYTES / 2) ? runCpuTask(settings, 'readerContent', doc) : Promise.resolve(readerContent(doc));
}

/** A batch of imported pages as documents; on the background lane once the batch holds much text or HTML. */
export function convertImportPagesOffThread(settings: CpuPoolSettings, input: ConvertInput, signal?: AbortSignal): Promise<ConvertOutput> {
  const bytes = input.bodies.reduce((n, b) => n + (b.text?.length ?? 0), 0);
  const large = bytes >= OFFLOAD_MIN_BYTES / 4 || input.bodies.some((b) => b.kind !== 'markdown');
  return large ? runCpuTask(settings, 'convertImportPages', input, { signal, priority: 'background' }) : Promise.resolve(convertImportPages(input));
}

/**
 * Whether a document JSON holds about `bytes` or more (its text, plus a little per node), without serialising it:
 * the walk stops as soon as the answer is yes, so a small document costs a few steps and a large one no more than
 * `bytes` worth of nodes.
 */
export function atLeast(doc: unknown, bytes: number): boolean {
  let size = 0;
  const stack: unknown[] = [doc];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const { text, content } = node as { text?: unknown; content?: unknown };
    size += 24 + (typeof text === 'string' ? text.length : 0);
    if (size >= bytes) return true;
    if (Array.isArray(content)) for (const child of content) stack.push(child);
  }
  return false;
}
