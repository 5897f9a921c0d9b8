import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { exportWorker, unzip } from '../exports/helpers.js';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();
let worker: Worker | undefined;

afterAll(async () => {
  await worker?.stop();
});

/** Clicks the dialog's download link and returns the downloaded file's name and bytes. */
async function downloadFrom(page: Page, filename: string) {
  const link = page.getByRole('dialog').getByRole('link', { name: `Download ${filename}` });
  await visible(link, 30_000);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

describe('export', () => {
  it('exports a space as Markdown and a page as HTML from their headers, and downloads the zips', async () => {
    const { page, token, workspaceId, hostname } = await apiSignedInWorkspace(web, 'exporter');
    const space = await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook' } });
    expect(space.status).toBe(201);
    const ids: string[] = [];
    for (const [title, markdown] of [
      ['Welcome', 'Start here.'],
      ['Team rules', 'Be kind.'],
    ]) {
      const res = await web.t.request({ method: 'POST', url: '/api/v1/pages', token, body: { workspaceId, spaceId: space.body.data.id, title, markdown } });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    worker = exportWorker(web.t);

    // The space: Markdown is the default format.
    await page.goto(`/w/${hostname}/s/${space.body.data.slug}`);
    await page.getByRole('button', { name: 'Export', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export “Handbook”' });
    await visible(dialog);
    expect(await dialog.getByRole('radio', { name: 'Markdown' }).isChecked()).toBe(true);
    expect(await dialog.getByRole('checkbox', { name: 'Include attachments' }).isChecked()).toBe(true);
    await web.shot(page, 'export-space-dialog');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const space1 = await downloadFrom(page, 'Handbook.zip');
    await visible(dialog.getByText(/^Ready: 2 pages and attachments, [\d.]+ KB\.$/));
    await web.shot(page, 'export-space-ready');
    expect(space1.name).toBe('Handbook.zip');
    expect(space1.bytes.subarray(0, 2).toString()).toBe('PK');
    const files = await unzip(space1.bytes);
    expect([...files.keys()].sort()).toEqual(['Team rules.md', 'Welcome.md', 'kb-manifest.json']);
    expect(files.get('Welcome.md')?.toString()).toContain('Start here.');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });

    // A page: HTML, without the pages under it.
    await page.goto(`/w/${hostname}/s/${space.body.data.slug}/p/welcome-${ids[0]}`);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Export…' }).click();
    const pageDialog = page.getByRole('dialog', { name: 'Export “Welcome”' });
    await visible(pageDialog);
    await pageDialog.getByRole('radio', { name: 'HTML' }).check();
    await pageDialog.getByRole('checkbox', { name: 'Include the pages under it' }).uncheck();
    await pageDialog.getByRole('button', { name: 'Export', exact: true }).click();
    const single = await downloadFrom(page, 'Welcome.zip');
    await visible(pageDialog.getByText(/^Ready: 1 page, /));
    await web.shot(page, 'export-page-ready');
    const pageFiles = await unzip(single.bytes);
    expect([...pageFiles.keys()].sort()).toEqual(['Welcome.html', 'kb-manifest.json']);
    expect(pageFiles.get('Welcome.html')?.toString()).toContain('<title>Welcome</title>');
  });
});
