import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { createJob, fakeServer, html, json, makePage, makeSpace, researchUrl, researchWorker, waitForJob } from './helpers.js';

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let handbook: string;
let worker: Worker | null = null;
let web: Awaited<ReturnType<typeof fakeServer>>;
let slowMs = 3000;

const report = (id: string, user = editor) => t.request({ url: researchUrl(ws, `/${id}/report`), token: user.token });

beforeAll(async () => {
  t = await createTestApp();
  const w = await workspaceWithRoles(t);
  ({ admin, editor, viewer } = w);
  ws = w.workspace.id;
  handbook = await makeSpace(t, ws, admin, 'Handbook');
  await makePage(
    t,
    ws,
    admin,
    handbook,
    'Deployment guide',
    '# Deployment guide\n\nEvery deployment goes through the canary stage first. The canary receives five percent of traffic for thirty minutes.\n\nA rollback restores the previous release with one command. Rollback is automatic when the canary error rate doubles.\n\nThe office coffee machine is on the second floor.',
  );
  await makePage(
    t,
    ws,
    admin,
    handbook,
    'Incident review: failed rollback',
    'The rollback of release 42 failed because the database migration was not reversible. Deployment now requires reversible migrations. The canary stage caught the error rate early.',
  );
  await makePage(t, ws, admin, handbook, 'Lunch menu', 'Soup on Mondays, pasta on Tuesdays. Nothing about releases here.');
  const board = await makeSpace(t, ws, admin, 'Board', 'private');
  await makePage(t, ws, admin, board, 'Confidential deployment rollback plan', 'The secret merger deployment rollback plan is confidential.');
  const task = await t.request({
    method: 'POST',
    url: '/api/v1/tasks',
    token: admin.token,
    body: { workspaceId: ws, title: 'Automate deployment rollback', description: 'Make rollback a single step in the deployment pipeline.' },
  });
  expect(task.status).toBe(201);

  web = await fakeServer({
    '/search': (req, res) => {
      const q = new URL(req.url ?? '', 'http://x').searchParams.get('q') ?? '';
      json(res, 200, {
        query: q,
        results: [
          { url: `${web.base}/pages/canary`, title: 'Canary releases explained', content: 'Canary snippet' },
          { url: `${web.base}/pages/rollback`, title: '', content: 'Rollback snippet' },
          { url: `${web.base}/image.png`, title: 'A picture', content: '' },
          { url: `${web.base}/gone`, title: 'Gone', content: '' },
          { url: 'ftp://example.com/file', title: 'FTP', content: '' },
        ],
      });
    },
    '/pages/canary': (_req, res) =>
      html(res, 'Canary releases', [
        'A canary deployment sends a small share of traffic to the new release before everyone gets it.',
        'If the canary shows errors, a rollback returns traffic to the old release within minutes.',
      ]),
    '/pages/rollback': (_req, res) =>
      html(res, 'Rollback strategies &amp; patterns', ['Blue green deployment keeps the previous environment warm so that a rollback is instant.']),
    '/image.png': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    },
    '/slow': (_req, res) => {
      const timer = setTimeout(() => html(res, 'Slow page', ['A slow page about deployment rollback arrives late.']), slowMs);
      res.on('close', () => clearTimeout(timer));
    },
    '/slowsearch': (req, res) => {
      json(res, 200, { results: [1, 2, 3, 4, 5, 6].map((n) => ({ url: `${web.base}/slow/${n}`, title: `Slow ${n}`, content: '' })) });
      void req;
    },
  });
});
afterAll(async () => {
  await worker?.stop();
  await web?.close();
  await t?.close();
});

async function withWorker<T>(config: Parameters<typeof researchWorker>[1], run: () => Promise<T>): Promise<T> {
  worker = researchWorker(t, config);
  try {
    return await run();
  } finally {
    await worker.stop();
    worker = null;
  }
}

describe('research runs', () => {
  it('researches the docs the creator can read, writes a cited report and saves it as a page in their private Research space', async () => {
    await withWorker({}, async () => {
      const job = await createJob(t, ws, editor, { topic: 'deployment rollback' });
      const done = await waitForJob(t, ws, editor, job.id);
      expect(done).toMatchObject({ status: 'completed', progress: 100, sourcesSearched: 3, estimatedTimeRemaining: 0, error: null });
      expect(done.documentsFound).toBeGreaterThanOrEqual(3);
      expect(done.timeElapsed).toBeGreaterThan(0);
      expect(done.timeElapsed).toBeLessThan(20);
      expect(done.startedAt).not.toBeNull();
      expect(done.completedAt).not.toBeNull();

      const res = await report(job.id);
      expect(res.status).toBe(200);
      const r = res.body;
      if (process.env.SHOW_REPORT) console.log(r.content);
      expect(r).toMatchObject({ id: job.id, topic: 'deployment rollback', writer: 'extractive', pageId: done.pageId });
      expect(r.timeSpent).toBeGreaterThan(0);
      expect(r.completedAt).toBe(done.completedAt);
      expect(r.summary).toMatch(/\[\d+\]/);
      expect(r.content).toContain('## Summary');
      expect(r.content).toContain('## Key findings');
      expect(r.content).toContain('## Sources');
      expect(r.content).toMatch(/## How this report was made[\s\S]*\*\*web\*\* \(not searched\): no web search service is configured/);
      const titles = r.sources.map((s: { title: string }) => s.title);
      expect(titles).toEqual(expect.arrayContaining(['Deployment guide', 'Incident review: failed rollback', 'Automate deployment rollback']));
      // The private space's page is invisible to the editor, so to their research; the lunch menu is not relevant.
      expect(titles).not.toContain('Confidential deployment rollback plan');
      expect(r.content).not.toContain('merger');
      expect(titles).not.toContain('Lunch menu');
      for (const s of r.sources) {
        expect(s.type).toBe('doc');
        expect(s.relevance).toBeGreaterThan(0);
        expect(s.relevance).toBeLessThanOrEqual(1);
        expect(s.url).toMatch(/^\/api\/v1\/(pages|tasks)\//);
      }
      expect(r.sources[0].relevance).toBeGreaterThanOrEqual(r.sources.at(-1).relevance);
      // Every citation points at a listed source.
      expect(r.content).not.toContain('coffee');
      const cited = [...r.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
      expect(cited.length).toBeGreaterThan(3);
      expect(Math.max(...cited)).toBeLessThanOrEqual(r.sources.length);
      expect(r.coverage).toContainEqual(expect.objectContaining({ source: 'docs', status: 'searched' }));
      expect(r.coverage).toContainEqual(expect.objectContaining({ source: 'web', status: 'skipped' }));
      // Every source by default: one that cannot be used is skipped, and says why.
      expect(r.coverage).toContainEqual({ source: 'repository', status: 'skipped', detail: 'no repository was given' });

      const page = await t.request({ url: `/api/v1/pages/${r.pageId}`, token: editor.token, query: { format: 'markdown' } });
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ title: 'Research: deployment rollback', createdBy: editor.id });
      expect(page.body.data.markdown).toContain('Sources');
      // Without targetSpaceId the report goes to the creator's own private space: other members see neither it nor the job.
      const spaces = await t.request({ url: '/api/v1/spaces', token: editor.token, query: { workspaceId: ws } });
      const research = spaces.body.data.filter((s: { name: string }) => s.name.startsWith('Research'));
      expect(research).toHaveLength(1);
      expect(research[0]).toMatchObject({ name: `Research (${editor.name})`, visibility: 'private' });
      expect(page.body.data.spaceId).toBe(research[0].id);
      expect((await t.request({ url: `/api/v1/pages/${r.pageId}`, token: viewer.token })).status).toBe(404);
      expect((await report(job.id, viewer)).status).toBe(404);
      expect((await t.request({ url: researchUrl(ws, `/${job.id}`), token: viewer.token })).status).toBe(404);
      expect((await report(job.id, admin)).status).toBe(200);

      // A second report goes to the same space; a brief one is shorter and has no theme sections.
      const brief = await createJob(t, ws, editor, { topic: 'deployment rollback', outputMode: 'brief', sources: ['docs'] });
      await waitForJob(t, ws, editor, brief.id);
      const b = (await report(brief.id)).body;
      expect(b.content.length).toBeLessThan(r.content.length);
      expect(b.content).not.toContain('### ');
      const briefPage = await t.request({ url: `/api/v1/pages/${b.pageId}`, token: editor.token });
      expect(briefPage.body.data.spaceId).toBe(research[0].id);
      const list = await t.request({ url: researchUrl(ws), token: editor.token, query: { status: 'completed' } });
      expect(list.body.jobs.map((j: { id: string }) => j.id)).toEqual([brief.id, job.id]);
      expect(list.body.jobs[0]).toMatchObject({ status: 'completed', progress: 100 });
      const theirs = await t.request({ url: researchUrl(ws), token: viewer.token, query: { status: 'completed' } });
      expect(theirs.body).toMatchObject({ jobs: [], total: 0 });
    });
  });

  it('saves into targetSpaceId, and reports honestly when nothing matches', async () => {
    await withWorker({}, async () => {
      const notes = await makeSpace(t, ws, admin, 'Notes');
      const job = await createJob(t, ws, editor, { topic: 'quantum entanglement xylophones', sources: ['docs'], targetSpaceId: notes });
      const done = await waitForJob(t, ws, editor, job.id);
      expect(done).toMatchObject({ status: 'completed', documentsFound: 0 });
      const r = (await report(job.id)).body;
      expect(r.sources).toEqual([]);
      expect(r.summary).toContain('No material');
      const page = await t.request({ url: `/api/v1/pages/${r.pageId}`, token: editor.token });
      expect(page.body.data.spaceId).toBe(notes);
    });
  });

  it('searches the web through a SearXNG-compatible service and reads the result pages', async () => {
    await withWorker({ config: { WEB_SEARCH_URL: web.base, RESEARCH_ALLOW_PRIVATE_NETWORK: true } }, async () => {
      const job = await createJob(t, ws, editor, { topic: 'canary deployment rollback', sources: ['web'] });
      const done = await waitForJob(t, ws, editor, job.id);
      expect(done).toMatchObject({ status: 'completed', sourcesSearched: 1, documentsFound: 2 });
      const r = (await report(job.id)).body;
      expect(r.sources.map((s: { type: string }) => s.type)).toEqual(['web', 'web']);
      expect(r.sources.map((s: { url: string }) => s.url).sort()).toEqual([`${web.base}/pages/canary`, `${web.base}/pages/rollback`]);
      // A result without a title takes the page's own (entities decoded).
      expect(r.sources.map((s: { title: string }) => s.title)).toContain('Rollback strategies & patterns');
      expect(r.content).not.toContain('tracking');
      expect(r.content).not.toContain('Copyright');
      const webCoverage = r.coverage.find((c: { source: string }) => c.source === 'web');
      expect(webCoverage.status).toBe('searched');
      expect(webCoverage.detail).toContain('not text: image/png');
      expect(webCoverage.detail).toContain('HTTP 404');
      expect(web.seen.some((s) => s.url.startsWith('/search?q=canary+deployment+rollback&format=json'))).toBe(true);
    });
  });

  it('refuses to fetch result pages on loopback or private addresses unless allowed', async () => {
    await withWorker({ config: { WEB_SEARCH_URL: web.base, RESEARCH_ALLOW_PRIVATE_NETWORK: false } }, async () => {
      const before = web.seen.length;
      const job = await createJob(t, ws, editor, { topic: 'canary deployment', sources: ['web'] });
      const done = await waitForJob(t, ws, editor, job.id);
      expect(done).toMatchObject({ status: 'completed', documentsFound: 0 });
      const r = (await report(job.id)).body;
      const webCoverage = r.coverage.find((c: { source: string }) => c.source === 'web');
      expect(webCoverage.detail).toContain('refused: a loopback or private address');
      // The search service (the operator's setting) was asked; no result page was fetched.
      expect(web.seen.slice(before).map((s) => s.url.split('?')[0])).toEqual(['/search']);
    });
  });

  it('stops gathering at the time budget and writes the report from what it has', async () => {
    slowMs = 8000;
    // A budget minute of 100 ms: the 5-minute minimum is half a second.
    await withWorker(
      { config: { WEB_SEARCH_URL: `${web.base}/slowsearch/`, RESEARCH_ALLOW_PRIVATE_NETWORK: true, RESEARCH_BUDGET_MINUTE_MS: 100 } },
      async () => {
        const job = await createJob(t, ws, editor, { topic: 'deployment rollback', sources: ['docs', 'web'], timeBudget: 5 });
        const done = await waitForJob(t, ws, editor, job.id);
        expect(done.status).toBe('completed');
        const r = (await report(job.id)).body;
        expect(r.timeSpent).toBeLessThan(6); // never waited for the slow pages (8 s)
        expect(r.sources.length).toBeGreaterThan(0); // the docs found before the budget ran out
        expect(r.coverage.find((c: { source: string }) => c.source === 'web')).toMatchObject({ status: 'partial' });
        expect(r.content).toContain('Gathering stopped at the time budget');
      },
    );
  });

  it('cancels a running job: it stops, writes nothing more, and says partial results were gathered', async () => {
    slowMs = 10_000;
    await withWorker({ config: { WEB_SEARCH_URL: `${web.base}/slowsearch/`, RESEARCH_ALLOW_PRIVATE_NETWORK: true }, leaseMs: 300 }, async () => {
      const job = await createJob(t, ws, editor, { topic: 'deployment rollback cancelled', sources: ['docs', 'web'] });
      const running = await waitForJob(t, ws, editor, job.id, (s) => s === 'running');
      expect(running.status).toBe('running');
      // Wait until the docs source has found something (the web pages hang for 10 s).
      for (let i = 0; i < 200; i++) {
        const v = await t.request({ url: researchUrl(ws, `/${job.id}`), token: editor.token });
        if (v.body.sourcesSearched >= 1) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const cancel = await t.request({ method: 'POST', url: researchUrl(ws, `/${job.id}/cancel`), token: editor.token });
      expect(cancel.status).toBe(200);
      expect(cancel.body).toEqual({ id: job.id, status: 'cancelled', partialResults: true });
      // The handler sees the cancellation through its signal and ends; the queue job ends cancelled.
      const row = await t.database.db.selectFrom('researchJobs').select('jobId').where('id', '=', job.id).executeTakeFirstOrThrow();
      const until = Date.now() + 5000;
      let queued = await t.database.db.selectFrom('jobs').select('status').where('id', '=', row.jobId!).executeTakeFirstOrThrow();
      while (queued.status === 'running' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
        queued = await t.database.db.selectFrom('jobs').select('status').where('id', '=', row.jobId!).executeTakeFirstOrThrow();
      }
      expect(queued.status).toBe('cancelled');
      const after = await t.request({ url: researchUrl(ws, `/${job.id}`), token: editor.token });
      expect(after.body).toMatchObject({ status: 'cancelled', pageId: null, estimatedTimeRemaining: 0 });
      expect(after.body.progress).toBeLessThan(100);
      expect(after.body.documentsFound).toBeGreaterThan(0);
      // What had been gathered is kept: a partial report on the job, and no page.
      const partial = await report(job.id);
      expect(partial.status).toBe(200);
      expect(partial.body).toMatchObject({ id: job.id, pageId: null, writer: 'extractive' });
      expect(partial.body.sources.length).toBeGreaterThan(0);
      expect(partial.body.content).toContain('The job was cancelled; this report was written from what had been gathered');
      const pages = await t.database.db.selectFrom('pages').select('id').where('title', '=', 'Research: deployment rollback cancelled').execute();
      expect(pages).toEqual([]);
    });
  });

  it('lets an OpenAI-compatible model write the report from the passages, and falls back when it fails', async () => {
    let fail = false;
    const llm = await fakeServer({
      '/v1/chat/completions': (req, res) => {
        if (fail) return json(res, 500, { error: { message: 'overloaded' } });
        expect(req.headers.authorization).toBe('Bearer sk-test');
        json(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: 'test-model',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: {
                role: 'assistant',
                content: JSON.stringify({
                  summary: 'Rollbacks are automatic after a failed canary [1].',
                  content: '## Summary\n\nRollbacks are automatic after a failed canary [1].\n\n## Key findings\n\n- Migrations must be reversible [2].',
                }),
              },
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        });
      },
    });
    try {
      await withWorker({ config: { LLM_BASE_URL: `${llm.base}/v1`, LLM_MODEL: 'test-model', LLM_API_KEY: 'sk-test' } }, async () => {
        const job = await createJob(t, ws, editor, { topic: 'deployment rollback', sources: ['docs'], outputMode: 'brief' });
        await waitForJob(t, ws, editor, job.id);
        const r = (await report(job.id)).body;
        expect(r.writer).toBe('llm');
        expect(r.summary).toBe('Rollbacks are automatic after a failed canary [1].');
        expect(r.content).toMatch(/^## Summary\n\nRollbacks are automatic/);
        expect(r.content).toContain('- Migrations must be reversible [2].');
        expect(r.content).toContain('## Sources\n\n1. [');
        expect(r.content).toContain('Written by test-model');
        const call = JSON.parse(llm.seen[0].body);
        expect(call.model).toBe('test-model');
        expect(call.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
        expect(call.messages[1].content).toContain('Topic: deployment rollback');
        expect(call.messages[1].content).toMatch(/\[1\] /);
        expect(call.messages[1].content).toContain('brief report');

        fail = true;
        const second = await createJob(t, ws, editor, { topic: 'deployment rollback', sources: ['docs'] });
        await waitForJob(t, ws, editor, second.id);
        const fallback = (await report(second.id)).body;
        expect(fallback.writer).toBe('extractive');
        expect(fallback.content).toContain('The language model could not write the report');
      });
    } finally {
      await llm.close();
    }
  });
});
