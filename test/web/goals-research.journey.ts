import { afterAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { researchWorker } from '../research/helpers.js';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();
let worker: Worker | undefined;
afterAll(async () => {
  await worker?.stop();
});

describe('goals', () => {
  it('creates a goal, links tasks to it and shows its progress', async () => {
    const { page, token, hostname, workspaceId: ws } = await apiSignedInWorkspace(web, 'planner');
    const task = async (title: string, status: string) => {
      const res = await web.t.request({ method: 'POST', url: '/api/v1/tasks', token, body: { workspaceId: ws, title, status } });
      expect(res.status).toBe(201);
    };
    await task('Fix the sign-up bug', 'done');
    await task('Write the beta invite', 'todo');

    await page.goto(`/w/${hostname}/goals`);
    await visible(page.getByText('No goals yet', { exact: false }));
    await page.getByRole('button', { name: 'New goal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New goal' });
    await dialog.getByRole('button', { name: 'Create goal' }).click();
    await visible(dialog.getByText('A goal needs a title.'));
    await dialog.getByLabel('Title').fill('Ship the beta');
    await dialog.getByLabel('Horizon').selectOption('mid');
    await dialog.getByLabel('Description').fill('Twenty teams using it every day.');
    await dialog.getByLabel('Keywords').fill('beta');
    await dialog.getByLabel('Keywords').press('Enter');
    await dialog.getByRole('button', { name: 'Create goal' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const midTerm = page.getByRole('region', { name: /Mid term/ });
    const goal = midTerm.getByRole('article', { name: 'Ship the beta' });
    await visible(goal);
    await visible(goal.getByText('0% · 0 of 0 tasks done'));

    for (const title of ['Fix the sign-up bug', 'Write the beta invite']) {
      await goal.getByRole('combobox', { name: 'Link a task' }).click();
      await goal.getByRole('combobox', { name: 'Link a task' }).fill(title.slice(0, 8));
      await page.getByRole('option', { name: title }).click();
      await goal.getByRole('button', { name: 'Link', exact: true }).click();
      await visible(goal.getByRole('list', { name: 'Tasks of Ship the beta' }).getByRole('link', { name: title }));
    }
    await visible(goal.getByText('50% · 1 of 2 tasks done'));
    expect(await goal.getByRole('progressbar', { name: 'Progress of Ship the beta' }).getAttribute('aria-valuenow')).toBe('50');
    await web.shot(page, 'goals');

    // What the API holds matches what the screen says.
    const goals = await web.t.request({ url: `/api/workspaces/${ws}/goals`, token });
    expect(goals.body.goals[0]).toMatchObject({
      title: 'Ship the beta',
      horizon: 'mid',
      keywords: ['beta'],
      taskCount: 2,
      completedTaskCount: 1,
      progress: 50,
    });

    // Editing: the goal moves to the long-term group.
    await goal.getByRole('button', { name: 'Edit Ship the beta' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit goal' });
    await edit.getByLabel('Horizon').selectOption('long');
    await edit.getByRole('button', { name: 'Save goal' }).click();
    await visible(page.getByRole('region', { name: /Long term/ }).getByRole('article', { name: 'Ship the beta' }));
  }, 120_000);
});

describe('research', () => {
  it('starts a job on a space with pages, follows it to the end and opens the report', async () => {
    const { page, token, hostname, workspaceId: ws } = await apiSignedInWorkspace(web, 'researcher');
    const space = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId: ws, name: 'Handbook', visibility: 'public' } });
    expect(space.status).toBe(201);
    const pages = [
      ['Onboarding engineers', 'New engineers pair with a buddy for two weeks. Onboarding starts with the handbook and a first small fix.'],
      ['Release process', 'We release every Tuesday. Onboarding notes for release managers live here too.'],
    ];
    for (const [title, markdown] of pages) {
      const res = await web.t.request({ method: 'POST', url: '/api/v1/pages', token, body: { workspaceId: ws, spaceId: space.body.data.id, title, markdown } });
      expect(res.status).toBe(201);
    }
    worker = researchWorker(web.t);

    await page.goto(`/w/${hostname}/research`);
    await visible(page.getByText('No research yet.'));
    await page.getByRole('button', { name: 'Start research' }).click();
    await visible(page.getByText('Say what to research.'));
    await page.getByLabel('Question').fill('How do we onboard new engineers?');
    await page.getByLabel('Save the report in').selectOption({ label: 'Handbook' });
    await page.getByRole('button', { name: 'Start research' }).click();
    await page.waitForURL(/\/research\/[0-9a-f-]{36}$/);
    const jobId = page.url().split('/').pop();

    await visible(page.getByLabel('Status: Completed'), 30_000);
    await visible(page.getByRole('list', { name: 'Coverage' }).getByText('docs', { exact: true }));
    await visible(page.getByRole('list', { name: 'Sources' }).getByText('Onboarding engineers', { exact: false }));
    await web.shot(page, 'research-job');
    const job = await web.t.request({ url: `/api/workspaces/${ws}/research/${jobId}`, token });
    expect(job.body).toMatchObject({ status: 'completed', sources: ['docs'], progress: 100 });

    await page.getByRole('link', { name: 'Open report' }).click();
    await page.waitForURL(new RegExp(`/w/${hostname}/s/handbook/p/.*${job.body.pageId}$`));

    // Back on the list, the job shows as completed.
    await page.goto(`/w/${hostname}/research`);
    const row = page.getByRole('table', { name: 'Research jobs' }).getByRole('row', { name: /How do we onboard new engineers/ });
    await visible(row.getByText('Completed'));

    // With no web search service configured, a web-only job still ends, and says the web was skipped and why.
    await page.getByLabel('Question').fill('What do others write about onboarding?');
    await page.getByRole('checkbox', { name: 'Docs' }).uncheck();
    await page.getByRole('checkbox', { name: 'Web' }).check();
    await page.getByRole('button', { name: 'Start research' }).click();
    await page.waitForURL(/\/research\/[0-9a-f-]{36}$/);
    await visible(page.getByLabel(/Status: (Completed|Failed)/), 30_000);
    await visible(page.getByText('no web search service is configured', { exact: false }));
    await web.shot(page, 'research-web-skipped');
  }, 120_000);
});
