/**
 * `kb-manifest.json`, at the root of every export: what file names cannot say. The pages in tree order (each parent
 * before its children, siblings in order), with id, title, icon, path, parent, order among siblings and the original
 * position key, dates and authors, and each page's attachments with their paths and hashes; `warnings` lists what
 * could not be exported (an attachment whose bytes were missing). An import reads it to rebuild the tree exactly.
 */
export const MANIFEST_PATH = 'kb-manifest.json';

export interface ManifestPage {
  id: string;
  title: string;
  /** The page's icon (an emoji or icon name); left out when it has none (and in exports made before icons were kept). */
  icon?: string;
  path: string;
  parentId: string | null;
  /** Order among its siblings in the export, from 0. */
  order: number;
  /** The page's fractional position key in kb. */
  position: string;
  createdAt: string;
  updatedAt: string;
  authors: string[];
  attachments: { id: string; filename: string; path: string; contentType: string; size: number; sha256: string }[];
}

export interface Manifest {
  kind: 'kb-export';
  version: 1;
  exportedAt: string;
  format: 'markdown' | 'html';
  source: { workspaceId: string; spaceId: string; pageId: string | null; includeChildren: boolean };
  pages: ManifestPage[];
  warnings: { path: string; message: string }[];
}
