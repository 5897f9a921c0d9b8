import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/areas/research/sources/html.js';
import { htmlToTextOffThread, OFFLOAD_MIN_BYTES } from '../../src/workers/offload.js';
import { closeCpuPool, cpuPoolThreads, poolFor, runCpuTask } from '../../src/workers/pool.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';

/**
 * The CPU pool serves large Markdown conversions of the pages area: created on first use only, the same answers as
 * inline, and an error raised in a pool thread answered in the error shape with its code (not a 500).
 */
let t: TestApp;
let editor: TestUser;
let ws: string;
let space: string;

/** About 120 KB of Markdown: sections with paragraphs and a list, above the 64 KB offload threshold. */
const BIG = Array.from(
  { length: 200 },
  (_, i) =>
    `## Section ${i}\n\nThe release train for section ${i} leaves every Tuesday; **freeze** the branch a day before.\n\n- check the dashboards\n- page the on-call\n\n${'Plain words about deploys and rollbacks. '.repeat(12)}`,
).join('\n\n');

beforeAll(async () => {
  t = await createTestApp();
  const roles = await workspaceWithRoles(t);
  editor = roles.editor;
  ws = roles.workspace.id;
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/spaces',
    token: roles.admin.token,
    body: { workspaceId: ws, name: 'Docs', visibility: 'public' },
  });
  space = res.body.data.id;
});

afterAll(async () => {
  await t.close();
  await closeCpuPool();
});

describe('the CPU pool', () => {
  it('starts no thread for small work', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Small', markdown: '# Hi\n\nshort' },
    });
    expect(res.status).toBe(201);
    const read = await t.request({ url: `/api/v1/pages/${res.body.data.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(read.status).toBe(200);
    expect(read.body.data.markdown).toBe('# Hi\n\nshort\n');
    expect(await cpuPoolThreads()).toBe(0);
  });

  it('converts large Markdown on a pool thread, both ways, with the same result as inline', async () => {
    expect(Buffer.byteLength(BIG)).toBeGreaterThan(100 * 1024);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Big', markdown: BIG },
    });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(await cpuPoolThreads()).toBe(1);
    const content = (await t.request({ url: `/api/v1/pages/${created.body.data.id}`, token: editor.token })).body.data.content;
    expect(content.content.filter((n: { type: string }) => n.type === 'heading')).toHaveLength(200);
    expect(content.content[1].content[1]).toMatchObject({ text: 'freeze', marks: [{ type: 'bold' }] });

    const read = await t.request({ url: `/api/v1/pages/${created.body.data.id}`, token: editor.token, query: { format: 'markdown' } });
    expect(read.status).toBe(200);
    expect(read.body.data.markdown).toContain('## Section 199\n');
    expect(read.body.data.markdown).toContain('**freeze**');
    // Written back as that Markdown, the document is the same.
    const again = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Again', markdown: read.body.data.markdown },
    });
    expect(again.status).toBe(201);
    expect((await t.request({ url: `/api/v1/pages/${again.body.data.id}`, token: editor.token })).body.data.content).toEqual(content);

    const history = await t.request({ url: `/api/v1/pages/${created.body.data.id}/history`, token: editor.token });
    const entry = await t.request({
      url: `/api/v1/pages/${created.body.data.id}/history/${history.body.data[0].id}`,
      token: editor.token,
      query: { format: 'markdown' },
    });
    expect(entry.status).toBe(200);
    expect(entry.body.data.markdown).toBe(read.body.data.markdown);
  });

  it('runs background threads at CPU_WORKER_NICE (Linux), interactive threads and the request thread at the process priority', async () => {
    if (process.platform !== 'linux') return;
    const niceOf = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
    const nices = () => readdirSync('/proc/self/task').map(niceOf);
    expect(t.config.CPU_WORKER_NICE).toBeGreaterThan(0);
    // The big Markdown above ran on the interactive lane: its thread is at the process priority.
    expect(nices()).not.toContain(t.config.CPU_WORKER_NICE);
    const passages = await runCpuTask(t.config, 'chunkDocuments', [{ type: 'doc', content: [] }], { priority: 'background' });
    expect(passages).toEqual([[]]);
    expect(nices()).toContain(t.config.CPU_WORKER_NICE);
    expect(niceOf(String(process.pid))).toBe(0);
  });

  it('reads a large fetched HTML page (research) on a pool thread, with the same title and text as inline', async () => {
    const html = `<html><head><title>Deploys</title><script>var x = 1;</script></head><body><main>${'<p>Roll back a bad deploy within <b>five</b> minutes.</p>'.repeat(2000)}</main></body></html>`;
    expect(html.length).toBeGreaterThan(OFFLOAD_MIN_BYTES);
    const offThread = await htmlToTextOffThread(t.config, html);
    expect(offThread).toEqual(htmlToText(html));
    expect(offThread.title).toBe('Deploys');
    expect(offThread.text).not.toContain('var x');
    expect(await cpuPoolThreads()).toBeGreaterThan(0);
  });

  it('survives a pool thread that fails between tasks: logged, replaced, never an unhandled error event', async () => {
    const markdown = `# Big\n\n${'words and more words '.repeat(5000)}`;
    const first = await runCpuTask(t.config, 'markdownToDocument', markdown);
    const pool = await poolFor(t.config, 'interactive');
    expect(pool.threads.length).toBeGreaterThan(0);
    // What a thread's uncaught error outside any task looks like to the pool: its Worker's 'error' event. Piscina
    // answers it with its own 'error' event, which without a listener would throw here and end the process.
    expect(() => pool.threads[0].emit('error', new Error('thread failed between tasks'))).not.toThrow();
    expect(await runCpuTask(t.config, 'markdownToDocument', markdown)).toEqual(first);
  });

  it('answers an error raised on a pool thread in the error shape with its code', async () => {
    const deep = `${'>'.repeat(5000)} too deep\n\n${'padding words '.repeat(6000)}`;
    expect(Buffer.byteLength(deep)).toBeGreaterThan(64 * 1024);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/pages',
      token: editor.token,
      body: { workspaceId: ws, spaceId: space, title: 'Deep', markdown: deep },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(typeof res.body.error.message).toBe('string');
  });
});
