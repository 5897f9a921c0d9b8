import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { exportWorker, unzip } from '../exports/helpers.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { createSpace } from '../spaces/helpers.js';
import { runKb } from './run-cli.js';

/**
 * `kb export` end to end: the real service listening on 127.0.0.1 with an exports worker, and the real `kb` command
 * as a child process (stderr piped, so the progress comes as plain lines) logged in through KB_SERVER + KB_TOKEN.
 */
let t: TestApp;
let worker: Worker;
let user: TestUser;
let workspace: { id: string };
let space: { id: string };
let env: Record<string, string>;
let dir: string;
const ids: Record<string, string> = {};
const png = randomBytes(2000);

async function page(title: string, markdown: string, parentId?: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/pages',
    token: user.token,
    body: { workspaceId: workspace.id, spaceId: space.id, title, markdown, ...(parentId ? { parentId } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

const kb = (args: string[], extraEnv: Record<string, string> = {}) => runKb(['export', ...args], { env: { ...env, ...extraEnv }, cwd: dir });

beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  worker = exportWorker(t);
  user = await createUser(t, 'Exporter');
  workspace = await createWorkspace(t, user);
  space = await createSpace(t, user, workspace.id, { name: 'Handbook' });
  ids.Guide = await page('Guide', 'Start here.');
  ids.Setup = await page('Setup', 'Setup text.', ids.Guide);
  ids.Notes = await page('Notes', 'Some notes.');
  const uploaded = await t.request({
    method: 'POST',
    url: '/api/v1/attachments',
    token: user.token,
    body: { pageId: ids.Setup, workspaceId: workspace.id, filename: 'diagram.png', contentType: 'image/png', data: png.toString('base64') },
  });
  expect(uploaded.status).toBe(201);
  dir = mkdtempSync(path.join(tmpdir(), 'kb-export-cli-'));
  env = { KB_SERVER: address, KB_TOKEN: await createApiKey(t, user, 'cli'), KB_CONFIG_DIR: path.join(dir, 'config') };
});

afterAll(async () => {
  await worker?.stop();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const slow = { timeout: 60_000 };
const zipOf = (file: string) => unzip(readFileSync(file));

describe('kb export', slow, () => {
  it('exports a space as Markdown into <space name>.zip in the current folder, with progress on stderr', async () => {
    const res = await kb(['--workspace', workspace.id, '--space', space.id]);
    expect(res.code, res.stderr).toBe(0);
    const file = path.join(dir, 'Handbook.zip');
    expect(res.stdout).toBe(`${file}\n`);
    // 3 pages and 1 attachment; stderr is a pipe, so plain lines rather than a redrawn bar
    expect(res.stderr).toContain('exporting: 4/4 (100%)');
    expect(res.stderr).toMatch(/downloaded [\d.]+ (B|KB) \(4 pages and attachments\)/);
    const files = await zipOf(file);
    expect([...files.keys()].sort()).toEqual(['Guide.md', 'Guide/Setup.md', 'Guide/_attachments/diagram.png', 'Notes.md', 'kb-manifest.json']);
    expect(files.get('Guide/_attachments/diagram.png')?.equals(png)).toBe(true);
    expect(files.get('Notes.md')?.toString()).toContain('Some notes.');
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('never overwrites a file without --force', async () => {
    const file = path.join(dir, 'taken.zip');
    writeFileSync(file, 'mine');
    const refused = await kb(['--workspace', workspace.id, '--space', space.id, '--out', 'taken.zip']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`error: ${file} already exists: pass --force`);
    expect(refused.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('mine');
    // the default name is refused the same way (Handbook.zip is there from the first test)
    const again = await kb(['--workspace', workspace.id, '--space', space.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Handbook.zip already exists');

    const forced = await kb(['--workspace', workspace.id, '--space', space.id, '--out', 'taken.zip', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');
  });

  it('exports one page as HTML without its children or attachments', async () => {
    const res = await kb(['--workspace', workspace.id, '--page', ids.Guide, '--format', 'html', '--no-children', '--no-attachments', '--out', 'guide.zip']);
    expect(res.code, res.stderr).toBe(0);
    const files = await zipOf(path.join(dir, 'guide.zip'));
    expect([...files.keys()].sort()).toEqual(['Guide.html', 'kb-manifest.json']);
    expect(files.get('Guide.html')?.toString()).toContain('<title>Guide</title>');
    const manifest = JSON.parse(files.get('kb-manifest.json')?.toString() ?? '{}');
    expect(manifest).toMatchObject({ format: 'html', source: { pageId: ids.Guide, includeChildren: false } });
  });

  it('prints the API’s error and exits 1, leaving no file', async () => {
    const before = readdirSync(dir).sort();
    const missing = await kb(['--workspace', workspace.id, '--space', '0190a000-0000-7000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*\(404 NOT_FOUND\)\n$/);
    expect(missing.stdout).toBe('');

    const stranger = await createUser(t, 'Stranger');
    const outsider = await kb(['--workspace', workspace.id, '--space', space.id], { KB_TOKEN: await createApiKey(t, stranger, 'cli') });
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/^error: .*\(403 FORBIDDEN\)\n$/);

    const badToken = await kb(['--workspace', workspace.id, '--space', space.id], { KB_TOKEN: 'not-a-key' });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toContain('(401 ');
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses bad options before asking the service, and says when nobody is logged in', async () => {
    const neither = await kb(['--workspace', workspace.id]);
    expect(neither.code).toBe(1);
    expect(neither.stderr).toBe('error: give exactly one of --space and --page\n');
    const both = await kb(['--workspace', workspace.id, '--space', space.id, '--page', ids.Guide]);
    expect(both.stderr).toBe('error: give exactly one of --space and --page\n');
    const format = await kb(['--workspace', workspace.id, '--space', space.id, '--format', 'pdf']);
    expect(format.code).toBe(1);
    expect(format.stderr).toContain("'pdf' is invalid");
    const noLogin = await kb(['--workspace', workspace.id, '--space', space.id], { KB_SERVER: '', KB_TOKEN: '' });
    expect(noLogin.code).toBe(1);
    expect(noLogin.stderr).toContain('not logged in: run `kb login');
    expect(existsSync(path.join(dir, 'config'))).toBe(false);
  });
});
