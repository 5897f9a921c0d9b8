import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { kb, startKb, tree, waitFor } from './helpers.js';

/**
 * End to end: the real service listening on 127.0.0.1 (a copy of the test database), and two connectors — the real
 * `kb` command as child processes — on two temporary folders of one source. `--once` runs drive most steps; one
 * connector also runs in watch mode (chokidar + polling) and is stopped and restarted.
 */
let t: TestApp;
let base: string;
let server: string;
let user: TestUser;
let workspace: { id: string; hostname: string };
let tmp: string;
let A: string;
let B: string;
let env: Record<string, string>;

const BINARY = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]), randomBytes(3000)]);

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  server = `http://127.0.0.1:${address.port}`;
  base = server;
  user = await createUser(t, 'Syncer');
  workspace = await createWorkspace(t, user);
  tmp = mkdtempSync(path.join(tmpdir(), 'kb-sync-e2e-'));
  A = path.join(tmp, 'A');
  B = path.join(tmp, 'B');
  mkdirSync(A);
  env = { KB_CONFIG_DIR: path.join(tmp, 'config'), KB_SERVER: '', KB_TOKEN: '' };
});

afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const slow = { timeout: 120_000 };
const w = (dir: string, rel: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
};
const r = (dir: string, rel: string) => readFileSync(path.join(dir, rel), 'utf8');
const once = (dir: string, ...extra: string[]) => kb(['sync', dir, '--once', ...extra], env);

/** A local-sync call made directly on the service, as the user. */
async function service(p: string, body: unknown) {
  return t.request({ method: 'POST', url: `/api/local-sync${p}`, token: user.token, headers: { 'x-workspace-id': workspace.id }, body });
}
let sourceId: string;

async function ok(run: Promise<{ code: number | null; stdout: string; stderr: string }>) {
  const res = await run;
  if (res.code !== 0) throw new Error(`kb exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

describe('kb login', slow, () => {
  it('refuses a wrong password and stores nothing', async () => {
    const res = await kb(['login', '--server', base, '--email', user.email], env, 'wrong-password\n');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('wrong email or password');
    expect(existsSync(path.join(env.KB_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it('stores an API key given with --token after checking it (file mode 0600)', async () => {
    const key = await createApiKey(t, user, 'connector');
    const [bad, res] = await Promise.all([
      kb(['login', '--server', base, '--token', 'nope'], env),
      ok(kb(['login', '--server', `${base}/api/`, '--token', key], env)),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('refused the token');
    expect(res.stdout).toContain(`as ${user.email}`);
    const file = path.join(env.KB_CONFIG_DIR, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved).toMatchObject({ server: base, token: key, kind: 'api-key', user: { email: user.email } });
  });

  it('logs in with email and a password on stdin (a JWT from /api/v1/auth/login)', async () => {
    const res = await ok(kb(['login', '--server', base, '--email', user.email], env, 'correct-horse\n'));
    expect(res.stdout).toContain(`Logged in to ${base} as ${user.email}`);
    const saved = JSON.parse(readFileSync(path.join(env.KB_CONFIG_DIR, 'config.json'), 'utf8'));
    expect(saved.kind).toBe('jwt');
    expect(saved.token.split('.')).toHaveLength(3);
    expect(typeof saved.expiresAt).toBe('string');
  });
});

describe('two connectors on one source', slow, () => {
  it('refuses to start without --workspace, or with an unknown one', async () => {
    // One after the other: both want the folder's lock, and a slow exit of the first must not fail the second.
    const res = await kb(['sync', A, '--once'], env);
    const unknown = await kb(['sync', A, '--once', '--workspace', 'no-such-ws'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('--workspace is required');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no workspace no-such-ws');
  });

  it('A pushes a fresh folder (text, unicode, nested, binary) and creates the source', async () => {
    w(A, 'notes/a.md', '# A\n\nfirst line\n');
    w(A, 'b.txt', 'bee\r\nwindows line ends\r\n');
    w(A, 'ünïcode/ß.md', 'grüße ✓\n');
    w(A, 'img/logo.png', BINARY);
    w(A, 'empty.txt', '');
    const res = await ok(once(A, '--workspace', workspace.hostname, '--source', 'Team Notes'));
    expect(res.stderr).toContain('created source Team Notes (bidirectional)');
    expect(res.stdout).toContain('pushed 5');
    expect(existsSync(path.join(A, '.kb-sync/state.json'))).toBe(true);

    const list = await service('/sources/list', {});
    const source = list.body.sources.find((s: { name: string }) => s.name === 'Team Notes');
    expect(source).toMatchObject({ mode: 'bidirectional', fileCount: 5 });
    sourceId = source.sourceId;
    const png = await service('/sources/file', { sourceId, relativePath: 'img/logo.png' });
    expect(png.status).toBe(200);
    expect(png.body.contentType).toBe('image/png'); // the connector sends MIME types
    expect(Buffer.from(png.body.content, 'base64').equals(BINARY)).toBe(true);
    const text = await service('/sources/file', { sourceId, relativePath: 'b.txt' });
    expect(text.body).toMatchObject({ contentType: 'text/plain', content: 'bee\r\nwindows line ends\r\n' });
    const md = await service('/sources/file', { sourceId, relativePath: 'notes/a.md' });
    expect(md.body).toMatchObject({ contentType: 'text/markdown', content: '# A\n\nfirst line\n' });
  });

  it('a second run with nothing changed pushes nothing', async () => {
    const res = await ok(once(A));
    expect(res.stdout).toContain('pushed 0');
  });

  it('B joins the same source by name into an empty folder and gets every file byte for byte', async () => {
    const res = await ok(once(B, '--workspace', workspace.id, '--source', 'team notes'));
    expect(res.stderr).toContain('using source Team Notes');
    expect(tree(B)).toEqual(tree(A));
    expect(readFileSync(path.join(B, 'img/logo.png')).equals(BINARY)).toBe(true);
  });

  it('create, edit, rename and delete in B reach A', async () => {
    w(B, 'notes/new.md', 'brand new\n');
    w(B, 'notes/a.md', '# A\n\nfirst line\nedited in B\n');
    renameSync(path.join(B, 'b.txt'), path.join(B, 'b-renamed.txt')); // a rename in place
    mkdirSync(path.join(B, 'docs'));
    renameSync(path.join(B, 'ünïcode/ß.md'), path.join(B, 'docs/ß.md')); // move to another folder
    unlinkSync(path.join(B, 'empty.txt'));
    const pushB = await ok(once(B));
    expect(pushB.stderr).toMatch(/deleted empty\.txt/);
    await ok(once(A));
    expect(tree(A)).toEqual(tree(B));
    expect(r(A, 'notes/a.md')).toBe('# A\n\nfirst line\nedited in B\n');
    expect(r(A, 'b-renamed.txt')).toBe('bee\r\nwindows line ends\r\n');
    expect(existsSync(path.join(A, 'b.txt'))).toBe(false);
    expect(existsSync(path.join(A, 'ünïcode'))).toBe(false); // the emptied folder goes too
    expect(r(A, 'docs/ß.md')).toBe('grüße ✓\n');
    const gone = await service('/sources/file', { sourceId, relativePath: 'empty.txt' });
    expect(gone.status).toBe(410);
  });

  it('a service-side edit reaches both folders', async () => {
    const current = await service('/sources/file', { sourceId, relativePath: 'notes/new.md' });
    const upd = await service('/sources/file/update', {
      sourceId,
      relativePath: 'notes/new.md',
      content: 'edited on the service\n',
      baseHash: current.body.contentHash,
    });
    expect(upd.body.status).toBe('ok');
    await ok(once(A));
    await ok(once(B));
    expect(r(A, 'notes/new.md')).toBe('edited on the service\n');
    expect(tree(A)).toEqual(tree(B));
  });

  it('watch mode: A pushes what appears and pulls what B changes; stopped, it finds the edits made meanwhile', async () => {
    const watch = startKb(['sync', A, '--interval', '0.5', '--debounce', '150'], env);
    try {
      await waitFor('the watcher to start', () => watch.out.stderr.includes('watching'), 30_000);
      // a local file appears: pushed by the watcher
      w(A, 'watched/live.md', 'written while watching\n');
      await waitFor('live.md on the service', async () => (await service('/sources/file', { sourceId, relativePath: 'watched/live.md' })).status === 200);
      // B changes a file: A pulls it on its next poll (an atomic write, which its watcher sees but does not push back)
      w(B, 'notes/a.md', '# A\n\nchanged by B while A watches\n');
      await ok(once(B));
      await waitFor('A to pull notes/a.md', () => r(A, 'notes/a.md') === '# A\n\nchanged by B while A watches\n');
      // a second connector on the same folder is refused
      const twin = await kb(['sync', A, '--once'], env);
      expect(twin.code).toBe(1);
      expect(twin.stderr).toMatch(/another kb sync \(process \d+\) is syncing/);
    } finally {
      const code = await watch.stop();
      expect(code).toBe(0);
    }
    expect(watch.out.stderr).toContain('stopped');
    const history = await service('/sources/history', { sourceId, relativePath: 'notes/a.md' });
    expect(history.body.versions[0].contentHash).toBe(tree(A)['notes/a.md']); // A did not push its own write back

    // while A is stopped: an edit, a delete and a new binary file
    w(A, 'notes/a.md', '# A\n\nedited while the connector was stopped\n');
    unlinkSync(path.join(A, 'watched/live.md'));
    w(A, 'img/second.bin', randomBytes(2048));
    const status = await ok(kb(['sync', 'status', A, '--json'], env));
    const report = JSON.parse(status.stdout);
    expect(report.pending).toEqual([
      { path: 'img/second.bin', change: 'create' },
      { path: 'notes/a.md', change: 'modify' },
      { path: 'watched/live.md', change: 'delete' },
    ]);
    expect(report.source).toMatchObject({ name: 'Team Notes', mode: 'bidirectional', paused: false });

    const again = startKb(['sync', A, '--interval', '0.5'], env);
    try {
      await waitFor('the stopped-time edits on the service', async () => {
        const a = await service('/sources/file', { sourceId, relativePath: 'notes/a.md' });
        const live = await service('/sources/file', { sourceId, relativePath: 'watched/live.md' });
        return a.body.content === '# A\n\nedited while the connector was stopped\n' && live.status === 410;
      });
    } finally {
      expect(await again.stop()).toBe(0);
    }
    await ok(once(B));
    expect(tree(B)).toEqual(tree(A));
  });

  it('concurrent edits end in a conflict that never overwrites local work; resolved keeping local', async () => {
    w(A, 'shared.md', 'base\n');
    await ok(once(A));
    await ok(once(B));
    w(A, 'shared.md', 'base\nA wins?\n');
    w(B, 'shared.md', 'base\nB wins?\n');
    await ok(once(A));
    const res = await ok(once(B));
    expect(res.stderr).toContain('conflict on shared.md');
    expect(r(B, 'shared.md')).toBe('base\nB wins?\n'); // untouched
    expect(r(B, 'shared.service-conflict.md')).toBe('base\nA wins?\n');
    // another cycle does not push the conflicted file again nor touch it
    await ok(once(B));
    expect(r(B, 'shared.md')).toBe('base\nB wins?\n');

    const [list, statusRun, human] = await Promise.all([
      ok(kb(['sync', 'conflicts', B, '--json'], env)),
      ok(kb(['sync', 'status', B, '--json'], env)),
      ok(kb(['sync', 'status', B], env)),
    ]);
    const rows = JSON.parse(list.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ relativePath: 'shared.md', sidePath: 'shared.service-conflict.md', here: true });
    const status = JSON.parse(statusRun.stdout);
    expect(status.conflicts).toEqual([expect.objectContaining({ path: 'shared.md', sidePath: 'shared.service-conflict.md' })]);
    expect(status.pending).toEqual([]);
    expect(human.stdout).toMatch(/Open conflicts: 1\n {2}shared\.md {2}\(service version in shared\.service-conflict\.md\)/);

    const resolved = await ok(kb(['sync', 'resolve', B, 'shared.md', '--keep', 'local'], env));
    expect(resolved.stdout).toContain('resolved shared.md: kept the local file');
    expect(existsSync(path.join(B, 'shared.service-conflict.md'))).toBe(false);
    expect(r(B, 'shared.md')).toBe('base\nB wins?\n');
    expect((await service('/sources/conflicts', { sourceId })).body.conflicts).toEqual([]);
    await ok(once(A));
    await ok(once(B));
    expect(r(A, 'shared.md')).toBe('base\nB wins?\n');
    expect(tree(A)).toEqual(tree(B));
  });

  it('the same again resolved keeping the service version (by naming the side file)', async () => {
    w(A, 'shared.md', 'round two from A\n');
    w(B, 'shared.md', 'round two from B\n');
    await ok(once(A));
    await ok(once(B));
    expect(r(B, 'shared.service-conflict.md')).toBe('round two from A\n');
    const resolved = await ok(kb(['sync', 'resolve', B, path.join(B, 'shared.service-conflict.md'), '--keep', 'service'], env));
    expect(resolved.stdout).toContain('resolved shared.md: kept the service version');
    expect(r(B, 'shared.md')).toBe('round two from A\n');
    expect(existsSync(path.join(B, 'shared.service-conflict.md'))).toBe(false);
    const again = await kb(['sync', 'resolve', B, 'shared.md', '--keep', 'local'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no open conflict on shared.md');
    await ok(once(A));
    await ok(once(B));
  });

  it('edits that do not clash: diff shows both sides, --keep merge applies both, history lists the versions', async () => {
    w(A, 'merge.md', 'one\ntwo\nthree\nfour\n');
    await ok(once(A));
    await ok(once(B));
    w(A, 'merge.md', 'ONE\ntwo\nthree\nfour\n');
    w(B, 'merge.md', 'one\ntwo\nthree\nFOUR\n');
    await ok(once(A));
    expect((await ok(once(B))).stderr).toContain('conflict on merge.md');

    const [human, json] = await Promise.all([ok(kb(['sync', 'diff', B, 'merge.md'], env)), ok(kb(['sync', 'diff', B, 'merge.md', '--json'], env))]);
    expect(human.stdout).toContain('@@ base line 1: changed on the service only');
    expect(human.stdout).toContain('  | ONE');
    expect(human.stdout).toContain('@@ base line 4: changed here only');
    expect(human.stdout).toContain('No change clashes');
    expect(JSON.parse(json.stdout)).toMatchObject({ relativePath: 'merge.md', status: 'open', mergeable: true, clashes: 0, merged: 'ONE\ntwo\nthree\nFOUR\n' });

    const merged = await ok(kb(['sync', 'resolve', B, 'merge.md', '--keep', 'merge'], env));
    expect(merged.stdout).toContain('resolved merge.md: merged both versions');
    expect(r(B, 'merge.md')).toBe('ONE\ntwo\nthree\nFOUR\n');
    expect(existsSync(path.join(B, 'merge.service-conflict.md'))).toBe(false);
    await ok(once(A));
    expect(r(A, 'merge.md')).toBe('ONE\ntwo\nthree\nFOUR\n');

    const history = JSON.parse((await ok(kb(['sync', 'history', A, 'merge.md', '--json'], env))).stdout);
    expect(history.versions.map((v: { origin: string }) => v.origin)).toEqual(['resolve', 'push', 'push']);
    expect((await ok(kb(['sync', 'history', A, 'merge.md', '--limit', '1'], env))).stdout).toMatch(
      /^merge\.md: 1 version, newest first\n\S+ {2}conflict resolved {2}19 bytes, [0-9a-f]{12}\n… older versions: raise --limit/,
    );
  });

  it('edits that clash: diff marks the clash and --keep merge refuses, changing nothing', async () => {
    w(A, 'merge.md', 'ONE\ntwo from A\nthree\nFOUR\n');
    w(B, 'merge.md', 'ONE\ntwo from B\nthree\nFOUR\n');
    await ok(once(A));
    await ok(once(B));
    expect((await ok(kb(['sync', 'diff', B, 'merge.md'], env))).stdout).toContain('@@ base line 2: CLASH: changed differently on both sides');
    const refused = await kb(['sync', 'resolve', B, 'merge.md', '--keep', 'merge'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('merge.md cannot be merged automatically: 1 change clash');
    expect(r(B, 'merge.md')).toBe('ONE\ntwo from B\nthree\nFOUR\n');
    expect(r(B, 'merge.service-conflict.md')).toBe('ONE\ntwo from A\nthree\nFOUR\n');
    await ok(kb(['sync', 'resolve', B, 'merge.md', '--keep', 'local'], env));
    await ok(once(A));
    expect(r(A, 'merge.md')).toBe('ONE\ntwo from B\nthree\nFOUR\n');
  });

  it('a paused source keeps local changes waiting (pulls go on) until it is resumed', async () => {
    expect((await service('/sources/pause', { sourceId })).status).toBe(200);
    w(A, 'while-paused.md', 'waits\n');
    const paused = await ok(once(A));
    expect(paused.stderr).toContain('the source is paused on the service');
    expect(paused.stdout).toContain('pushed 0');
    expect((await service('/sources/file', { sourceId, relativePath: 'while-paused.md' })).status).toBe(404);
    expect((await service('/sources/resume', { sourceId })).status).toBe(200);
    const resumed = await ok(once(A));
    expect(resumed.stdout).toContain('pushed 1');
    await ok(once(B));
    expect(r(B, 'while-paused.md')).toBe('waits\n');
  });

  it('at the end both folders and the service hold the same bytes', async () => {
    const a = tree(A);
    expect(tree(B)).toEqual(a);
    expect(Object.keys(a).some((p) => p.includes('service-conflict'))).toBe(false);
    const files = await service('/sources/files', { sourceId, limit: 1000 });
    const onService = Object.fromEntries(files.body.files.map((f: { relativePath: string; contentHash: string }) => [f.relativePath, f.contentHash]));
    expect(onService).toEqual(a);
    for (const run of await Promise.all([A, B].map((dir) => ok(kb(['sync', 'status', dir, '--json'], env))))) {
      const s = JSON.parse(run.stdout);
      expect(s).toMatchObject({ pending: [], conflicts: [], reachable: true, incoming: { count: 0, more: false } });
      expect(Date.parse(s.lastSyncAt)).toBeGreaterThan(Date.now() - 120_000);
    }
  });
});
