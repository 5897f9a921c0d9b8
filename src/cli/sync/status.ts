import type { SourceRecord } from './api.js';
import { type LocalChange, detectChanges } from './pusher.js';
import { openFolder } from './session.js';
import type { SyncState } from './state.js';

export interface StatusReport {
  folder: string;
  server: string;
  workspaceId: string;
  source: { sourceId: string; name: string; mode: string; paused: boolean | null; fileCount: number | null; connectorOnline: boolean | null };
  lastSyncAt: string | null;
  pending: Array<{ path: string; change: LocalChange['kind'] }>;
  /** Service events not pulled yet (null when the service could not be reached); `more` when there are over 1,000. */
  incoming: { count: number; more: boolean } | null;
  conflicts: Array<{ path: string; conflictId: string; sidePath: string | null; here: boolean }>;
  reachable: boolean;
  error?: string;
}

/** What `kb sync status DIR` shows: the source, local changes not pushed, service changes not pulled, open conflicts. */
export async function folderStatus(dir: string): Promise<StatusReport> {
  const { root, state, ctx } = await openFolder(dir, { maxAttempts: 2 });
  const scratch: SyncState = structuredClone(state); // detectChanges refreshes size/mtime: not saved here
  const { changes } = await detectChanges(root, scratch);
  const report: StatusReport = {
    folder: root,
    server: state.server,
    workspaceId: state.workspaceId,
    source: { sourceId: state.sourceId, name: state.sourceName, mode: state.mode, paused: null, fileCount: null, connectorOnline: null },
    lastSyncAt: state.lastSyncAt,
    pending: state.mode === 'pull_only' ? [] : changes.map((c) => ({ path: c.rel, change: c.kind })),
    incoming: null,
    conflicts: Object.entries(state.conflicts).map(([path, c]) => ({ path, conflictId: c.conflictId, sidePath: c.sidePath, here: true })),
    reachable: false,
  };
  try {
    const [sources, conflicts, deltas] = await Promise.all([
      ctx.api.listSources(),
      ctx.api.conflicts(state.sourceId),
      state.mode === 'push_only' ? Promise.resolve(null) : ctx.api.deltas(state.sourceId, state.cursor, 1000, state.connectorId, false),
    ]);
    const source: SourceRecord | undefined = sources.sources.find((s) => s.sourceId === state.sourceId);
    if (source) {
      report.source = {
        sourceId: source.sourceId,
        name: source.name,
        mode: source.mode,
        paused: source.paused,
        fileCount: source.fileCount,
        connectorOnline: source.connector?.online ?? null,
      };
    }
    for (const c of conflicts.conflicts) {
      if (!report.conflicts.some((r) => r.conflictId === c.conflictId))
        report.conflicts.push({ path: c.relativePath, conflictId: c.conflictId, sidePath: null, here: false });
    }
    if (deltas) report.incoming = { count: deltas.events.filter((e) => e.type.startsWith('file.')).length, more: deltas.hasMore };
    report.reachable = true;
  } catch (err) {
    report.error = (err as Error).message;
  }
  return report;
}

function ago(iso: string | null): string {
  if (!iso) return 'never';
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  const rel = s < 60 ? `${s}s ago` : s < 3600 ? `${Math.round(s / 60)}m ago` : s < 86400 ? `${Math.round(s / 3600)}h ago` : `${Math.round(s / 86400)}d ago`;
  return `${iso} (${rel})`;
}

export function formatStatus(r: StatusReport): string {
  const lines: string[] = [];
  const flags = [r.source.mode, r.source.paused ? 'PAUSED' : null, r.source.fileCount !== null ? `${r.source.fileCount} files on the service` : null].filter(
    Boolean,
  );
  lines.push(`Folder:     ${r.folder}`);
  lines.push(`Service:    ${r.server}${r.reachable ? '' : ` (unreachable: ${r.error})`}`);
  lines.push(`Source:     ${r.source.name} (${flags.join(', ')})  id ${r.source.sourceId}`);
  lines.push(`Last sync:  ${ago(r.lastSyncAt)}`);
  const mark = { create: 'A', modify: 'M', delete: 'D' } as const;
  lines.push(`Pending local changes: ${r.pending.length}`);
  for (const p of r.pending.slice(0, 50)) lines.push(`  ${mark[p.change]} ${p.path}`);
  if (r.pending.length > 50) lines.push(`  … and ${r.pending.length - 50} more`);
  if (r.incoming) lines.push(`Service changes to pull: ${r.incoming.count}${r.incoming.more ? '+' : ''}`);
  lines.push(`Open conflicts: ${r.conflicts.length}`);
  for (const c of r.conflicts) lines.push(`  ${c.path}${c.sidePath ? `  (service version in ${c.sidePath})` : c.here ? '' : '  (met by another connector)'}`);
  return lines.join('\n');
}
