import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { importWorker, makeZip, readTree, titles } from '../imports/helpers.js';
import { apiSignedInWorkspace, useWebApp, visible } from './harness.js';

const web = useWebApp();
let worker: Worker | undefined;

afterAll(async () => {
  await worker?.stop();
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001a5f645400000000049454e44ae426082',
  'hex',
);

/** Picks a file through the dialog's file field, as a person would (the browser's file chooser). */
async function chooseFile(page: Page, dialog: Locator, name: string, buffer: Buffer) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'File' }).click()]);
  await chooser.setFiles({ name, mimeType: 'application/octet-stream', buffer });
}

describe('import', () => {
  it('imports a zip into a space and a page under a page from their headers, with upload progress, warnings and a link to the result', async () => {
    const { page, token, workspaceId, hostname } = await apiSignedInWorkspace(web, 'importer');
    const space = (await web.t.request({ method: 'POST', url: '/api/v1/spaces', token, body: { workspaceId, name: 'Handbook' } })).body.data;
    worker = importWorker(web.t);
    const user = { token } as Parameters<typeof readTree>[1];

    // The space: a zip of two pages, one under the other, and a picture big enough to watch the upload.
    await page.goto(`/w/${hostname}/s/${space.slug}`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import into “Handbook”' });
    await visible(dialog);
    expect(await dialog.getByRole('combobox', { name: 'Made by' }).inputValue()).toBe('Automatic');
    expect(await dialog.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    const zip = await makeZip(
      {
        'Guide.md': '# Guide\n\nRead [the setup](Guide/Setup.md).\n\n![the lake](lake.png)',
        'Guide/Setup.md': 'Install it. See [gone](missing.md).',
        'lake.png': Buffer.concat([PNG, randomBytes(1024 * 1024)]),
      },
      { compress: false },
    );
    await chooseFile(page, dialog, 'handbook.zip', zip);
    await visible(dialog.getByText('handbook.zip'));
    await web.shot(page, 'import-space-dialog');

    // Slowed to 256 KB/s so that the upload's progress shows.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await visible(dialog.getByRole('progressbar', { name: 'Upload progress' }));
    await visible(dialog.getByText(/^Uploading handbook\.zip: [\d.]+ (KB|MB) of 1\.0 MB…$/));
    await web.shot(page, 'import-space-uploading');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await visible(dialog.getByText('Imported 2 pages and 1 attachment (read as Markdown files).'), 30_000);
    const notes = dialog.getByRole('region', { name: 'Not carried over' });
    await visible(notes.getByText('Not carried over (1 note)'));
    await visible(notes.getByText('Guide/Setup.md'));
    await visible(notes.getByText(/the link to missing\.md points at nothing in the upload/));
    await web.shot(page, 'import-space-done');
    // The page list behind the dialog has been refreshed.
    await visible(page.getByRole('tree').getByRole('treeitem', { name: 'Guide', exact: true }));
    expect(titles(await readTree(web.t, user, workspaceId, space.id))).toEqual(['Guide', ['Setup']]);

    await dialog.getByRole('link', { name: 'Open “Guide”' }).click();
    await page.waitForURL(/\/p\/guide-/);
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('Title').inputValue()).toBe('Guide');

    // A page: one Markdown file goes under it; then a file that is not what its name says is refused with the reason.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Import under this page…' }).click();
    const under = page.getByRole('dialog', { name: 'Import under “Guide”' });
    await visible(under);
    await visible(under.getByText('The pages go under “Guide”', { exact: false }));
    await chooseFile(page, under, 'broken.zip', Buffer.from('this is not a zip'));
    await under.getByRole('button', { name: 'Import', exact: true }).click();
    await visible(under.getByRole('alert').getByText('broken.zip is named .zip but is not a zip'));
    await web.shot(page, 'import-page-refused');
    // Accepted, then failed in the job: the reason, nothing imported, and a way back to the form.
    await chooseFile(page, under, 'fake.zip', await makeZip({ 'Trip.md': 'fine', 'Latin.md': Buffer.from([0x63, 0x61, 0x66, 0xe9]) }));
    expect(await under.getByRole('alert').count()).toBe(0);
    await under.getByRole('button', { name: 'Import', exact: true }).click();
    const failed = under.getByRole('alert').filter({ hasText: 'The import failed; nothing was imported' });
    await visible(failed.getByText('The file Latin.md is not UTF-8 text'), 30_000);
    await web.shot(page, 'import-page-failed');
    await under.getByRole('button', { name: 'Try another file' }).click();
    await chooseFile(page, under, 'Extra.md', Buffer.from('More **details**.'));
    await under.getByRole('button', { name: 'Import', exact: true }).click();
    await visible(under.getByText('Imported 1 page and 0 attachments (read as Markdown files).'), 30_000);
    expect(await under.getByRole('region', { name: 'Not carried over' }).count()).toBe(0);
    await under.getByRole('button', { name: 'Close', exact: true }).click();
    await under.waitFor({ state: 'hidden' });
    expect(titles(await readTree(web.t, user, workspaceId, space.id))).toEqual(['Guide', ['Setup', 'Extra']]);
  });
});
