import { isTextType } from '../../sync-rules/content.js';
import type { ConflictPreview, MergeHunk, VersionRecord } from './api.js';
import { pathArgument } from './conflicts.js';
import { openFolder } from './session.js';

/** `kb sync diff`: the three-way view of a conflict, hunk by hunk, and whether `--keep merge` can settle it. */
export function formatPreview(p: ConflictPreview): string {
  const out = [`${p.relativePath}: ${p.status} conflict ${p.conflictId}`];
  if (p.binary) out.push('binary content: no line view; keep local or service');
  else if (!p.local || !p.service) out.push(`${!p.local ? 'the local side' : 'the service'} deleted the file; keep local or service`);
  else {
    for (const h of p.hunks) out.push('', ...formatHunk(h));
    out.push(
      '',
      p.mergeable
        ? 'No change clashes: `kb sync resolve DIR PATH --keep merge` applies both sides.'
        : `${p.clashes} change${p.clashes === 1 ? '' : 's'} clash: keep local or service (or edit the file, keep local, and sync).`,
    );
  }
  return out.join('\n');
}

const WHO: Record<MergeHunk['kind'], string> = {
  local: 'changed here only',
  service: 'changed on the service only',
  both: 'the same change on both sides',
  clash: 'CLASH: changed differently on both sides',
};

function formatHunk(h: MergeHunk): string[] {
  const at = `@@ base line ${h.baseStart}${h.baseLines.length > 1 ? `–${h.baseStart + h.baseLines.length - 1}` : ''}: ${WHO[h.kind]}`;
  const block = (label: string, lines: string[]) => [`  ${label}:`, ...(lines.length ? lines.map((l) => `  | ${l}`) : ['  (nothing)'])];
  const lines = [at, ...block('base', h.baseLines)];
  if (h.kind === 'service') return [...lines, ...block('service', h.serviceLines)];
  if (h.kind === 'local' || h.kind === 'both') return [...lines, ...block(h.kind === 'both' ? 'both' : 'local', h.localLines)];
  return [...lines, ...block('local', h.localLines), ...block('service', h.serviceLines)];
}

/** `kb sync history`: the versions of a path the service keeps, newest first. */
export async function fileHistory(dir: string, arg: string, limit: number) {
  const { root, state, ctx } = await openFolder(dir, { maxAttempts: 3 });
  const rel = pathArgument(root, state, arg);
  const { versions, hasMore } = await ctx.api.history(state.sourceId, rel, limit);
  return { relativePath: rel, versions, hasMore };
}

const ORIGIN: Record<VersionRecord['origin'], string> = { push: 'pushed', update: 'edited on the service', resolve: 'conflict resolved' };

export function formatHistory(h: { relativePath: string; versions: VersionRecord[]; hasMore: boolean }): string {
  const rows = h.versions.map((v) => {
    const what = v.deleted ? 'deleted' : `${v.size} bytes${isTextType(v.contentType) ? '' : `, ${v.contentType}`}, ${v.contentHash?.slice(0, 12)}`;
    return `${v.createdAt}  ${ORIGIN[v.origin] ?? v.origin}  ${what}`;
  });
  return [
    `${h.relativePath}: ${h.versions.length} version${h.versions.length === 1 ? '' : 's'}, newest first`,
    ...rows,
    ...(h.hasMore ? ['… older versions: raise --limit'] : []),
  ].join('\n');
}
