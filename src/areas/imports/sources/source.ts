import type { DocJson } from '../../../editor/index.js';

/**
 * The contract between the import core and one source format (kb/Markdown, Notion, Confluence, Obsidian, HTML).
 *
 * The core opens the upload (a zip, or one file seen as a zip of one entry), checks it against the limits, and gives
 * the source its files. The source then says which files are pages, how they nest and in what order (`plan`), and
 * how one page's file becomes a document (`convert`, run on the CPU pool, so it must be a pure function of its
 * input). After conversion the core walks each document's links and images and asks the source where a reference
 * points (`resolve`): at another page of the import (a page link, or a mention when its text starts with `@`), at a
 * file of the import (it becomes an attachment of the page that first names it), or outside (left as written).
 */

export type SourceName = 'markdown' | 'html' | 'notion' | 'confluence' | 'obsidian';

/** The files of the upload. Paths are relative, `/`-separated, already checked (no `..`, no absolute path, no `\`). */
export interface ImportFiles {
  /** Every file, in the zip's order (directories are not listed). */
  readonly paths: readonly string[];
  has(path: string): boolean;
  size(path: string): number;
  /** The file as UTF-8 text (a BOM dropped); invalid UTF-8 fails the import with a clear error naming the path. */
  text(path: string): Promise<string>;
  bytes(path: string): Promise<Buffer>;
}

/** What a page's content is made from; handed to `convert` on the CPU pool (plain data only). */
export interface PageBody {
  /** The file it came from (links in it are relative to this path). */
  path: string;
  /** How `convert` reads `text`: `markdown` and `html` are converted by the core's own pipeline unless the source overrides. */
  kind: string;
  /**
   * The text to convert. Leave it out to have the core read the file at `path` (as UTF-8) just before converting,
   * a batch at a time, so a large import never holds every page's text at once.
   */
  text?: string;
}

export interface PlannedPage {
  /** Unique within the plan; usually the source path of the page's file. */
  key: string;
  title: string;
  /** The parent's key, or null for a root of the import (placed under the import's `parentPageId`, or at the top). */
  parentKey: string | null;
  /** null: a page without content (a folder that has no page of its own). */
  body: PageBody | null;
  /** The page's icon (an emoji), when the export gives it one. */
  icon?: string;
  /** Other paths that mean this page when a link names them (its folder, a Notion `.html` twin…). */
  aliases?: string[];
  /** Files that belong to this page whether or not its content names them (kb's manifest lists them). */
  attachments?: string[];
  /** What kb's manifest keeps of those files, by path: the original name (the zip's may carry a " (2)") and type. */
  attachmentDetails?: Record<string, { filename?: string; contentType?: string }>;
}

export interface Warning {
  path: string;
  message: string;
}

/** The pages of the import: every parent before its children, siblings in order. */
export interface ImportPlan {
  pages: PlannedPage[];
  /** The name a file gets as an attachment, by path, when its own is not it (Confluence stores `attachments/<page>/<id>.png`). */
  fileNames?: Record<string, string>;
  /** Files the export carries for its own use (Confluence's styles, icons and index): neither imported nor reported. */
  ignored?: string[];
}

export interface Converted {
  doc: DocJson;
  /** What could not be carried over, in words a person understands (`<iframe> is not supported; dropped`). */
  warnings: string[];
}

export interface ImportSource {
  name: SourceName;
  /** For `source: auto`: whether the files look like this tool's export (the core tries sources in a fixed order). */
  detect(files: ImportFiles): boolean | Promise<boolean>;
  plan(files: ImportFiles, warn: (w: Warning) => void): Promise<ImportPlan>;
  /** Pure (runs in a worker thread): one page's body as a document of the shared schema. */
  convert(body: PageBody): Converted;
  /**
   * Where `ref` (a link's href or an image's src, as written in the page at `fromPath`) points in the import: a path
   * of `files` (or a page key / alias), or null when it points outside (an http URL, a missing file).
   */
  resolve(fromPath: string, ref: string, files: ImportFiles): string | null;
}
