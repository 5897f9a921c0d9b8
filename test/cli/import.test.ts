import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApiKey, createUser, createWorkspace, type TestUser } from '../helpers/factories.js';
import { importWorker, makeZip, readPage, readTree, titles } from '../imports/helpers.js';
import { createSpace } from '../spaces/helpers.js';
import { runKb } from './run-cli.js';

/**
 * `kb import` end to end: the real service listening on 127.0.0.1 with an imports worker, and the real `kb` command
 * as a child process (stderr piped, so the progress comes as plain lines) logged in through KB_SERVER + KB_TOKEN.
 */
let t: TestApp;
let worker: Worker;
let user: TestUser;
let workspace: { id: string };
let space: { id: string };
let env: Record<string, string>;
let dir: string;

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001a5f645400000000049454e44ae426082',
  'hex',
);

const kb = (args: string[], extraEnv: Record<string, string> = {}) => runKb(['import', ...args], { env: { ...env, ...extraEnv }, cwd: dir });
const where = () => ['--workspace', workspace.id, '--space', space.id];

beforeAll(async () => {
  // 4 MB, so that a 5 MB upload is refused part way through its stream
  t = await createTestApp({ IMPORT_MAX_BYTES: 4 * 1024 * 1024 });
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  worker = importWorker(t);
  user = await createUser(t, 'Importer');
  workspace = await createWorkspace(t, user);
  space = await createSpace(t, user, workspace.id, { name: 'Handbook' });
  dir = mkdtempSync(path.join(tmpdir(), 'kb-import-cli-'));
  env = { KB_SERVER: address, KB_TOKEN: await createApiKey(t, user, 'cli'), KB_CONFIG_DIR: path.join(dir, 'config') };
  writeFileSync(
    path.join(dir, 'notes.zip'),
    await makeZip({
      'Guide.md': '# Guide\n\nRead [the setup](Guide/Setup.md) first.',
      'Guide/Setup.md': 'Install it. See [gone](missing.md).',
      'Notes.md': 'Some notes.',
    }),
  );
  writeFileSync(
    path.join(dir, 'photos.zip'),
    // 3 MB stored as they are (random bytes do not shrink), after a real PNG so the picture is what its name says
    await makeZip({ 'Trip.md': 'We went.\n\n![the lake](lake.png)', 'lake.png': Buffer.concat([PNG, randomBytes(3 * 1024 * 1024)]) }, { compress: false }),
  );
  writeFileSync(path.join(dir, 'Meeting.md'), 'Decided **things**.');
  writeFileSync(path.join(dir, 'broken.zip'), 'this is not a zip');
  writeFileSync(path.join(dir, 'picture.png'), 'not a page');
});

afterAll(async () => {
  await worker?.stop();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const slow = { timeout: 60_000 };

describe('kb import', slow, () => {
  it('uploads a zip, shows the upload and import progress on stderr, the warnings and a summary, and prints the top pages’ ids', async () => {
    const res = await kb(['notes.zip', ...where()]);
    expect(res.code, res.stderr).toBe(0);
    const roots = res.stdout.trim().split('\n');
    expect(roots).toHaveLength(2);
    // stderr is a pipe, so plain lines rather than a redrawn bar
    expect(res.stderr).toMatch(/^uploading: \d+\/\d+ \(100%\)/m);
    expect(res.stderr).toMatch(/uploaded [\d.]+ (B|KB); import \S+ started/);
    expect(res.stderr).toContain('importing: 3/3 (100%)');
    expect(res.stderr).toContain('warning: Guide/Setup.md: the link to missing.md points at nothing in the upload');
    expect(res.stderr).toContain('imported 3 pages and 0 attachments (read as markdown)');

    const tree = await readTree(t, user, workspace.id, space.id);
    expect(titles(tree)).toEqual(['Guide', ['Setup'], 'Notes']);
    expect(tree.map((p) => p.id)).toEqual(roots);
    expect((await readPage(t, user, roots[1])).markdown).toContain('Some notes.');
  });

  it('streams a larger upload, its progress shown by quarters, and brings its pictures along as attachments', async () => {
    const res = await kb(['photos.zip', ...where()]);
    expect(res.code, res.stderr).toBe(0);
    // stderr is a pipe: a line a quarter rather than a bar redrawn as the bytes go
    const uploading = res.stderr.split('\n').filter((line) => line.startsWith('uploading:'));
    expect(uploading.map((line) => /\((\d+)%\)/.exec(line)?.[1])).toEqual(['25', '50', '75', '100']);
    expect(uploading[3]).toMatch(/^uploading: (\d+)\/\1 \(100%\) +3\.0 MB$/);
    expect(res.stderr).toContain('imported 1 page and 1 attachment (read as markdown)');
    const trip = await readPage(t, user, res.stdout.trim());
    expect(trip.markdown).toMatch(/!\[the lake\]\(\/api\/v1\/attachments\/[^)]+\)/);
  });

  it('says why an import failed and exits 1 (nothing of it is kept)', async () => {
    writeFileSync(path.join(dir, 'fake.zip'), await makeZip({ 'Trip.md': 'fine', 'Latin.md': Buffer.from([0x63, 0x61, 0x66, 0xe9]) }));
    const before = titles(await readTree(t, user, workspace.id, space.id));
    const res = await kb(['fake.zip', ...where()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/\nerror: the import failed: The file Latin.md is not UTF-8 text \(VALIDATION_ERROR\)\n$/);
    expect(res.stdout).toBe('');
    expect(titles(await readTree(t, user, workspace.id, space.id))).toEqual(before);
  });

  it('imports one Markdown file under a parent page with --parent and --source', async () => {
    const parent = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: user.token,
      body: { workspaceId: workspace.id, spaceId: space.id, title: 'Minutes', markdown: '' },
    });
    expect(parent.status).toBe(201);
    const res = await kb(['Meeting.md', ...where(), '--parent', parent.body.data.id, '--source', 'markdown']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('imported 1 page and 0 attachments');
    expect(res.stderr).not.toContain('warning:');
    const meeting = await readPage(t, user, res.stdout.trim());
    expect(meeting).toMatchObject({ title: 'Meeting', parentId: parent.body.data.id });
    expect(meeting.markdown).toContain('Decided **things**.');
  });

  it('prints the API’s refusal and exits 1 for a bad upload, a missing space and a stranger', async () => {
    const broken = await kb(['broken.zip', ...where()]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toBe('uploading: 17/17 (100%)  17 B\nerror: broken.zip is named .zip but is not a zip (422 VALIDATION_ERROR)\n');
    expect(broken.stdout).toBe('');

    const missing = await kb(['Meeting.md', '--workspace', workspace.id, '--space', '0190a000-0000-7000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error: .*\(404 NOT_FOUND\)\n$/);

    const stranger = await createUser(t, 'Stranger');
    const outsider = await kb(['Meeting.md', ...where()], { KB_TOKEN: await createApiKey(t, stranger, 'cli') });
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/error: .*\(403 FORBIDDEN\)\n$/);
  });

  // The service answers 413 part way through the body and closes the connection (else the unread bytes would hold
  // the socket, and the server could not close: afterAll would time out).
  it('prints the 413 of an upload over IMPORT_MAX_BYTES, refused part way through its stream', async () => {
    writeFileSync(path.join(dir, 'huge.zip'), await makeZip({ 'big.bin': randomBytes(5 * 1024 * 1024) }, { compress: false }));
    const huge = await kb(['huge.zip', ...where()]);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/\nerror: The upload is larger than the limit of 4194304 bytes \(IMPORT_MAX_BYTES\) \(413 VALIDATION_ERROR\)\n$/);
  });

  it('refuses bad arguments before asking the service, and says when nobody is logged in', async () => {
    const image = await kb(['picture.png', ...where()]);
    expect(image.code).toBe(1);
    expect(image.stderr).toBe('error: picture.png: not a .zip, .md, .markdown or .html file\n');
    const absent = await kb(['absent.zip', ...where()]);
    expect(absent.stderr).toBe('error: absent.zip: no such file\n');
    const source = await kb(['notes.zip', ...where(), '--source', 'word']);
    expect(source.code).toBe(1);
    expect(source.stderr).toContain("'word' is invalid");
    const noSpace = await kb(['notes.zip', '--workspace', workspace.id]);
    expect(noSpace.code).toBe(1);
    expect(noSpace.stderr).toContain("required option '--space <id>' not specified");
    const noLogin = await kb(['notes.zip', ...where()], { KB_SERVER: '', KB_TOKEN: '' });
    expect(noLogin.code).toBe(1);
    expect(noLogin.stderr).toContain('not logged in: run `kb login');
  });
});
