import { readFileSync } from 'node:fs';
import { mkdir, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CliError } from '../common.js';
import { type SourceRecord, type SyncApi, syncApi } from './api.js';
import { ApiError, HttpClient } from './client.js';
import { type Credentials, loadCredentials } from './credentials.js';
import { pathFilter } from './paths.js';
import { createReporter, type Reporter } from './progress.js';
import { loadState, type SyncState, saveState, stateLock, withState } from './state.js';

export const MODES = ['bidirectional', 'push_only', 'pull_only'] as const;
export type Mode = (typeof MODES)[number];

/** Everything a sync step needs. */
export interface SyncContext {
  root: string;
  api: SyncApi;
  http: HttpClient;
  reporter: Reporter;
  signal?: AbortSignal;
}

export function connectorVersion(): string {
  try {
    return JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

/** The folder as an absolute real path (created when missing, so a new machine can pull into an empty folder). */
export async function resolveRoot(dir: string, create: boolean): Promise<string> {
  const abs = path.resolve(dir);
  if (create) await mkdir(abs, { recursive: true });
  try {
    return await realpath(abs);
  } catch {
    throw new CliError(`no such folder: ${abs}`);
  }
}

export function makeContext(
  root: string,
  creds: Credentials,
  workspaceId: string | undefined,
  options: { signal?: AbortSignal; reporter?: Reporter; maxAttempts?: number } = {},
): SyncContext {
  const reporter = options.reporter ?? createReporter();
  const http = new HttpClient({
    server: creds.server,
    token: creds.token,
    workspaceId,
    signal: options.signal,
    maxAttempts: options.maxAttempts,
    onRetry: ({ attempt, delayMs, reason }) => reporter.warn(`${reason}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)}s`),
  });
  return { root, api: syncApi(http), http, reporter, signal: options.signal };
}

/** `W` of `--workspace`: a workspace id, or the hostname or name of one of the caller's workspaces. */
async function resolveWorkspace(http: HttpClient, given: string): Promise<string> {
  const res = await http.get<{ data: Array<{ id: string; name: string; hostname: string }> }>('/v1/workspaces');
  const list = res.data ?? [];
  const byId = list.find((w) => w.id === given);
  if (byId) return byId.id;
  const lower = given.toLowerCase();
  const byHost = list.filter((w) => w.hostname?.toLowerCase() === lower);
  if (byHost.length === 1) return byHost[0].id;
  const byName = list.filter((w) => w.name?.toLowerCase() === lower);
  if (byName.length === 1) return byName[0].id;
  if (byName.length > 1) throw new CliError(`several workspaces are named ${given}: pass the id`);
  throw new CliError(`no workspace ${given} among yours (${list.map((w) => w.hostname).join(', ') || 'none'})`);
}

export interface SetupOptions {
  workspace?: string;
  source?: string;
  mode?: string;
  include?: string[];
  exclude?: string[];
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Registers a connector (or re-registers one the service forgot) and returns its id. */
async function ensureConnector(api: SyncApi, known: string | undefined): Promise<string> {
  if (known) {
    try {
      await api.heartbeat(known);
      return known;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const name = `${os.hostname()}`.slice(0, 200) || 'kb-sync';
  const created = await api.register({ name, platform: `${process.platform}-${process.arch}`, version: connectorVersion() });
  return created.connectorId;
}

/** Finds the source by name (case-insensitive) or creates it; a name taken meanwhile (409) is reused. */
async function ensureSource(api: SyncApi, name: string, connectorId: string, opts: SetupOptions, reporter: Reporter): Promise<SourceRecord> {
  const find = async () => (await api.listSources()).sources.find((s) => s.name.toLowerCase() === name.toLowerCase());
  let source = await find();
  if (!source) {
    try {
      source = await api.createSource({
        name,
        mode: opts.mode ?? 'bidirectional',
        connectorId,
        includePatterns: opts.include ?? [],
        excludePatterns: opts.exclude ?? [],
      });
      reporter.info(`created source ${source.name} (${source.mode})`);
      return source;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      source = await find();
      if (!source) throw err;
    }
  }
  if (opts.mode && opts.mode !== source.mode) reporter.warn(`source ${source.name} exists with mode ${source.mode}; --mode ${opts.mode} is ignored`);
  if ((opts.include?.length && !sameList(opts.include, source.includePatterns)) || (opts.exclude?.length && !sameList(opts.exclude, source.excludePatterns)))
    reporter.warn(
      `source ${source.name} exists with its own patterns (include ${JSON.stringify(source.includePatterns)}, exclude ${JSON.stringify(source.excludePatterns)}); those apply`,
    );
  reporter.info(`using source ${source.name} (${source.mode})`);
  return source;
}

/**
 * The first step of `kb sync DIR`: checks the folder against its stored state, resolves the workspace, registers
 * the connector and creates or reuses the source. Writes the state (ids, mode, patterns) and returns it.
 */
export async function setupFolder(root: string, opts: SetupOptions, options: { signal?: AbortSignal; reporter?: Reporter } = {}) {
  if (opts.mode && !MODES.includes(opts.mode as Mode)) throw new CliError(`--mode must be one of ${MODES.join(', ')}`);
  const creds = await loadCredentials();
  const existing = await loadState(root);
  if (existing && existing.server !== creds.server)
    throw new CliError(`${root} is synced with ${existing.server}, not ${creds.server}: log in there, or move .kb-sync/ away to start over`);
  if (existing && opts.source && opts.source.toLowerCase() !== existing.sourceName.toLowerCase())
    throw new CliError(`${root} is synced with source ${existing.sourceName}, not ${opts.source}`);
  if (!existing && !opts.workspace) throw new CliError('--workspace is required the first time a folder is synced');
  const probe = makeContext(root, creds, undefined, options);
  const workspaceId = opts.workspace ? await resolveWorkspace(probe.http, opts.workspace) : existing!.workspaceId;
  if (existing && workspaceId !== existing.workspaceId) throw new CliError(`${root} is synced with workspace ${existing.workspaceId}, not ${opts.workspace}`);
  const ctx = makeContext(root, creds, workspaceId, options);

  const connectorId = await ensureConnector(ctx.api, existing?.connectorId);
  let source: SourceRecord;
  if (existing) {
    const found = (await ctx.api.listSources()).sources.find((s) => s.sourceId === existing.sourceId);
    if (!found) throw new CliError(`source ${existing.sourceName} no longer exists on the service; move .kb-sync/ away to start over`);
    source = found;
  } else {
    source = await ensureSource(ctx.api, opts.source ?? path.basename(root), connectorId, opts, ctx.reporter);
  }
  const lock = stateLock(root);
  await lock.acquire(60_000, '.kb-sync/state.json');
  try {
    const state: SyncState = (await loadState(root)) ?? {
      version: 1,
      server: creds.server,
      workspaceId,
      sourceId: source.sourceId,
      sourceName: source.name,
      connectorId,
      mode: source.mode,
      include: source.includePatterns,
      exclude: source.excludePatterns,
      cursor: null,
      lastSyncAt: null,
      lastPushAt: null,
      lastPullAt: null,
      files: {},
      conflicts: {},
      pending: {},
    };
    state.connectorId = connectorId;
    state.sourceName = source.name;
    state.mode = source.mode;
    state.include = source.includePatterns;
    state.exclude = source.excludePatterns;
    await saveState(root, state);
  } finally {
    await lock.release();
  }
  return { ctx, source, connectorId };
}

/** A context for the commands that work on an already synced folder (status, conflicts, resolve). */
export async function openFolder(dir: string, options: { signal?: AbortSignal; reporter?: Reporter; maxAttempts?: number } = {}) {
  const root = await resolveRoot(dir, false);
  const state = await loadState(root);
  if (!state) throw new CliError(`${root} is not a synced folder (no .kb-sync/ state): run \`kb sync ${dir} --workspace W\` first`);
  const creds = await loadCredentials();
  if (creds.server !== state.server) throw new CliError(`${root} is synced with ${state.server}, but you are logged in to ${creds.server}`);
  return { root, state, ctx: makeContext(root, creds, state.workspaceId, options) };
}

export function filterOf(state: SyncState) {
  return pathFilter(state.include, state.exclude);
}

export { withState };
