import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../../config.js';
import { addressRuleOf, resolvePermitted } from '../research.outbound.js';

/** Where a repository comes from, once its URL has passed the rules. */
export type RepositoryTarget =
  | { kind: 'remote'; scheme: 'https' | 'ssh'; url: string; host: string; port: number }
  | { kind: 'local'; url: string; dir: string };

type CloneConfig = Pick<
  Config,
  'PATH' | 'RESEARCH_ALLOW_PRIVATE_NETWORK' | 'RESEARCH_ALLOWED_NETWORKS' | 'RESEARCH_GIT_TIMEOUT_MS' | 'RESEARCH_CLONE_MAX_BYTES'
>;

/** How often the size of a clone in progress is measured. */
const SIZE_CHECK_MS = 300;

export class CloneTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the clone grew past ${maxBytes} bytes (RESEARCH_CLONE_MAX_BYTES) and was stopped`);
  }
}

/** A value for a shell word: GIT_SSH_COMMAND is run by a shell. Hosts and addresses are checked before, this is belt and braces. */
const shellWord = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The environment git runs in: nothing of the service's own. HOME is a fresh private folder, global and system
 * configuration are off (a `.gitconfig` planted where HOME used to point cannot set `core.hooksPath` or
 * anything else), no prompt, no LFS downloads. ssh connects to the address that was checked (`HostName`), with
 * the host's name kept for its key (`HostKeyAlias`) and no proxy from the service account's ssh configuration.
 */
function gitEnv(home: string, config: CloneConfig, pinnedSsh?: { host: string; address: string }): NodeJS.ProcessEnv {
  const ssh = ['ssh', '-o BatchMode=yes', '-o StrictHostKeyChecking=accept-new', '-o ConnectTimeout=15'];
  if (pinnedSsh)
    ssh.push(`-o HostName=${shellWord(pinnedSsh.address)}`, `-o HostKeyAlias=${shellWord(pinnedSsh.host)}`, '-o ProxyCommand=none', '-o ProxyJump=none');
  return {
    PATH: config.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_SSH_COMMAND: ssh.join(' '),
  };
}

function git(args: string[], opts: { env: NodeJS.ProcessEnv; timeoutMs: number; signal: AbortSignal }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { timeout: opts.timeoutMs, signal: opts.signal, maxBuffer: 4 * 1024 * 1024, env: opts.env }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const lastLines = String(stderr || err.message)
        .trim()
        .split('\n')
        .slice(-2)
        .join(' ')
        .slice(0, 300);
      reject(new Error(lastLines || 'git failed'));
    });
  });
}

/** Bytes of the files under `dir` (symbolic links not followed). */
export async function sizeOnDisk(dir: string): Promise<number> {
  let total = 0;
  const walk = async (d: string) => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else total += (await lstat(full).catch(() => ({ size: 0 }))).size;
    }
  };
  await walk(dir);
  return total;
}

/**
 * Runs `clone` while measuring `dest` every few hundred milliseconds: past `maxBytes` the git process is killed.
 * Measured once more at the end, so a clone too fast for the watchdog is refused all the same.
 */
async function withSizeCap(dest: string, maxBytes: number, signal: AbortSignal, clone: (signal: AbortSignal) => Promise<unknown>) {
  const watchdog = new AbortController();
  let measuring = false;
  const timer = setInterval(async () => {
    if (measuring) return;
    measuring = true;
    if ((await sizeOnDisk(dest)) > maxBytes) watchdog.abort(new CloneTooLargeError(maxBytes));
    measuring = false;
  }, SIZE_CHECK_MS);
  try {
    await clone(AbortSignal.any([signal, watchdog.signal]));
  } catch (err) {
    if (watchdog.signal.aborted) throw watchdog.signal.reason;
    throw err;
  } finally {
    clearInterval(timer);
  }
  if ((await sizeOnDisk(dest)) > maxBytes) throw new CloneTooLargeError(maxBytes);
}

/**
 * A shallow clone of one branch into `<work>/repo`: an argument array (never a shell), one protocol allowed, no
 * hooks, a timeout and a size cap. The host's addresses are checked now and the clone connects to the one
 * checked (https through curl's resolve list, ssh through `HostName`), so a second DNS answer cannot redirect it.
 */
export async function shallowClone(target: RepositoryTarget, branch: string, work: string, config: CloneConfig, signal: AbortSignal): Promise<string> {
  const home = path.join(work, 'home');
  const dest = path.join(work, 'repo');
  await mkdir(home, { recursive: true });
  const args = ['-c', 'protocol.allow=never', '-c', 'core.hooksPath=/dev/null', '-c', 'core.symlinks=false', '-c', 'http.followRedirects=false'];
  args.push('-c', 'core.fsmonitor=false', '-c', 'submodule.recurse=false');
  let pinnedSsh: { host: string; address: string } | undefined;
  if (target.kind === 'local') args.push('-c', 'protocol.file.allow=always');
  else {
    args.push('-c', `protocol.${target.scheme}.allow=always`);
    const [address] = await resolvePermitted(target.host, addressRuleOf(config));
    if (target.scheme === 'https') args.push('-c', `http.curloptResolve=${target.host}:${target.port}:${address.includes(':') ? `[${address}]` : address}`);
    else pinnedSsh = { host: target.host.replace(/^\[|\]$/g, ''), address };
  }
  args.push('clone', '--quiet', '--depth', '1', '--single-branch', '--no-tags', '--branch', branch, '--', target.url, dest);
  const env = gitEnv(home, config, pinnedSsh);
  await withSizeCap(dest, config.RESEARCH_CLONE_MAX_BYTES, signal, (s) => git(args, { env, timeoutMs: config.RESEARCH_GIT_TIMEOUT_MS, signal: s }));
  return dest;
}
