import { lstat, mkdtemp, open, readdir, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';
import type { Config } from '../../../config.js';
import type { ResearchRepositoryConfig } from '../../../db/tables/research.js';
import { validation } from '../../../errors.js';
import { addressRuleOf, BlockedAddressError, resolvePermitted } from '../research.outbound.js';
import { type RepositoryTarget, shallowClone } from './clone.js';
import { errorText, type FoundDocument, type GatherContext, type SourceOutcome, stopReason } from './source.js';

/** Files larger than this are skipped as "huge" (generated code, data dumps). */
export const MAX_FILE_BYTES = 512 * 1024;
/** Directory entries looked at in one repository, whatever its size. */
const MAX_ENTRIES = 50_000;
const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);

const refuse = (reason: string, message: string) => validation('repository.url', reason, message);

function rootsOf(config: Pick<Config, 'RESEARCH_REPO_ROOTS'>): string[] {
  return config.RESEARCH_REPO_ROOTS.split(':')
    .map((r) => r.trim())
    .filter((r) => path.isAbsolute(r));
}

/** `host` must not be able to pass for a command-line option or carry odd characters. */
function checkHostName(host: string) {
  if (!host || host.startsWith('-') || !/^[A-Za-z0-9.[\]:_-]+$/.test(host)) throw refuse('invalid_host', `"${host.slice(0, 100)}" is not a host name`);
}

/**
 * The URL rules (decisions.md): `https://`, `ssh://` and `git@host:path` URLs; a local path or `file://` URL only
 * under a directory of RESEARCH_REPO_ROOTS (resolved through symbolic links); no loopback or private address
 * unless RESEARCH_ALLOW_PRIVATE_NETWORK. A name that does not resolve now is left to the clone to report.
 * Throws 422 VALIDATION_ERROR (field `repository.url`) for anything else.
 */
export async function checkRepositoryUrl(raw: string, config: Config): Promise<RepositoryTarget> {
  const url = raw.trim();
  const scp = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(url);
  let target: RepositoryTarget;
  if (scp) {
    checkHostName(scp[2]);
    if (scp[1].startsWith('-') || scp[3].startsWith('-')) throw refuse('invalid_url', 'The repository URL is not valid');
    target = { kind: 'remote', scheme: 'ssh', url, host: scp[2], port: 22 };
  } else if (/^(https|ssh):\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse('invalid_url', 'The repository URL is not valid');
    }
    const scheme = parsed.protocol === 'https:' ? 'https' : 'ssh';
    checkHostName(parsed.hostname);
    if (parsed.password) throw refuse('credentials', 'Put no credentials in the repository URL');
    target = { kind: 'remote', scheme, url: parsed.toString(), host: parsed.hostname, port: Number(parsed.port) || (scheme === 'https' ? 443 : 22) };
  } else if (/^file:\/\//i.test(url) || path.isAbsolute(url)) {
    const roots = rootsOf(config);
    if (!roots.length)
      throw refuse(
        'local_not_allowed',
        'Local repositories are not enabled on this service (RESEARCH_REPO_ROOTS is empty); use an https://, ssh:// or git@ URL',
      );
    let dir: string;
    try {
      dir = await realpath(/^file:/i.test(url) ? fileURLToPath(url) : url);
    } catch {
      throw refuse('not_found', 'No repository at that local path');
    }
    const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => null)));
    if (!realRoots.some((r) => r && (dir === r || dir.startsWith(r + path.sep))))
      throw refuse('outside_roots', 'A local repository must be under a directory listed in RESEARCH_REPO_ROOTS');
    return { kind: 'local', url: `file://${dir}`, dir };
  } else throw refuse('unsupported_scheme', 'Use an https://, ssh:// or git@host:path URL (or a local path under RESEARCH_REPO_ROOTS)');

  try {
    await resolvePermitted(target.host, addressRuleOf(config));
  } catch (err) {
    if (err instanceof BlockedAddressError) throw refuse('private_address', `The repository host ${err.host} is a loopback or private address`);
    // Unresolvable now: the clone will say so in the report.
  }
  return target;
}

/** Does a relative path match the `paths` globs? A glob without a slash matches the file name at any depth. */
export function matchesPaths(rel: string, globs: string[]): boolean {
  if (!globs.length) return true;
  return globs.some((g) => {
    const glob = g.replace(/^\.\//, '').replace(/\/$/, '/**');
    return minimatch(rel, glob, { dot: true, matchBase: !glob.includes('/') });
  });
}

/** A file is text when its first 8 KiB hold no NUL byte and decode as UTF-8 without many replacement characters. */
function looksBinary(head: Buffer): boolean {
  if (head.includes(0)) return true;
  const text = head.toString('utf8');
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  return bad > 8 && bad / text.length > 0.01;
}

/** The files of a checkout, sorted, relative with `/`; `.git`, `node_modules` and the like skipped; at most MAX_ENTRIES looked at. */
async function listFiles(root: string): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let entries = 0;
  const walk = async (dir: string) => {
    const list = await readdir(dir, { withFileTypes: true });
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of list) {
      if (++entries > MAX_ENTRIES) return;
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(full);
      } else if (e.isFile()) files.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  await walk(root);
  return { files, truncated: entries > MAX_ENTRIES };
}

/** The text of one file of the checkout, or why it is skipped (not a plain file, too large, binary). */
async function readTextFile(full: string): Promise<string | 'other' | 'large' | 'binary'> {
  const info = await lstat(full);
  if (!info.isFile()) return 'other';
  if (info.size > MAX_FILE_BYTES) return 'large';
  const handle = await open(full, 'r');
  let data: Buffer;
  try {
    data = await handle.readFile();
  } finally {
    await handle.close();
  }
  return looksBinary(data.subarray(0, 8192)) ? 'binary' : data.toString('utf8');
}

/** Reads the matching files in order, up to `maxFiles` text files, counting what was skipped and why. */
async function readFiles(root: string, matching: string[], repo: ResearchRepositoryConfig, g: GatherContext) {
  const documents: FoundDocument[] = [];
  const skipped = { binary: 0, large: 0, overLimit: 0 };
  for (const rel of matching) {
    if (g.signal.aborted) break;
    if (documents.length >= repo.maxFiles) {
      skipped.overLimit++;
      continue;
    }
    const text = await readTextFile(path.join(root, rel));
    if (text === 'other') continue;
    if (text === 'large' || text === 'binary') {
      skipped[text]++;
      continue;
    }
    documents.push({ key: `file:${rel}`, kind: 'file', title: rel, url: `${repo.url}#${rel}`, text });
    g.found(1);
  }
  return { documents, skipped };
}

/**
 * A shallow clone of the repository at `branch`, restricted to `paths`, reading at most `maxFiles` text files
 * (binaries, symbolic links and files over 512 KiB skipped). The clone lives in a temporary folder, removed after.
 */
export async function gatherRepository(repo: ResearchRepositoryConfig, g: GatherContext): Promise<SourceOutcome> {
  const fail = (detail: string) => ({ documents: [], coverage: { source: 'repository' as const, status: 'failed' as const, detail } });
  let target: RepositoryTarget;
  try {
    target = await checkRepositoryUrl(repo.url, g.config);
  } catch (err) {
    return fail(`refused ${repo.url}: ${errorText(err)}`);
  }
  const work = await mkdtemp(path.join(tmpdir(), 'kb-research-repo-'));
  try {
    let root: string;
    try {
      root = await shallowClone(target, repo.branch, work, g.config, g.signal);
    } catch (err) {
      if (g.signal.aborted)
        return { documents: [], coverage: { source: 'repository', status: 'partial', detail: `clone interrupted: ${stopReason(g.signal)}` } };
      return fail(`could not clone ${repo.url} at ${repo.branch}: ${errorText(err)}`);
    }
    const { files, truncated } = await listFiles(root);
    const matching = files.filter((f) => matchesPaths(f, repo.paths));
    const { documents, skipped } = await readFiles(root, matching, repo, g);
    const parts = [`${repo.url} at ${repo.branch}: ${files.length} files, ${matching.length} matching${repo.paths.length ? ` ${repo.paths.join(', ')}` : ''}`];
    parts.push(`${documents.length} text files read`);
    if (skipped.binary) parts.push(`${skipped.binary} binary skipped`);
    if (skipped.large) parts.push(`${skipped.large} over ${MAX_FILE_BYTES / 1024} KiB skipped`);
    if (skipped.overLimit) parts.push(`${skipped.overLimit} past maxFiles (${repo.maxFiles}) not read`);
    if (truncated) parts.push(`only the first ${MAX_ENTRIES} entries looked at`);
    if (g.signal.aborted) parts.push(stopReason(g.signal));
    return { documents, coverage: { source: 'repository', status: g.signal.aborted ? 'partial' : 'searched', detail: parts.join('; ') } };
  } finally {
    await rm(work, { recursive: true, force: true }).catch(() => {});
  }
}
