import { watch } from 'chokidar';
import { isInternal, relativePath } from './paths.js';

export type WatchKind = 'file' | 'dir-removed';

/**
 * Watches the folder with chokidar (symbolic links not followed; the state folder, its temporary files and conflict
 * side files ignored) and reports each changed file path, or a removed folder (which needs a full scan). The
 * connector's own writes show up too: they match the stored hash, so the push that follows sends nothing.
 * Resolves once the initial walk is done.
 */
export async function watchFolder(root: string, onChange: (rel: string, kind: WatchKind) => void): Promise<{ close(): Promise<void> }> {
  const watcher = watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    persistent: true,
    ignored: (full: string) => {
      const rel = relativePath(root, full);
      return rel !== '' && !rel.startsWith('..') && isInternal(rel);
    },
  });
  watcher.on('all', (event, full) => {
    const rel = relativePath(root, full);
    if (!rel || rel.startsWith('..')) return;
    if (event === 'add' || event === 'change' || event === 'unlink') onChange(rel, 'file');
    else if (event === 'unlinkDir') onChange(rel, 'dir-removed');
  });
  watcher.on('error', () => {
    // a vanished path or a permission problem: the periodic full scan covers it
  });
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { close: () => watcher.close() };
}
