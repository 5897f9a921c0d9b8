import { describe, expect, it } from 'vitest';
import { signedInWithApi, useWebApp, visible } from './harness.js';

const web = useWebApp();

async function post(token: string, url: string, body: unknown) {
  const res = await web.t.request({ method: 'POST', url, token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('search', () => {
  it('finds a page with Ctrl-K, opens it, then lists highlighted results filtered by space', async () => {
    const { page, token, hostname, workspaceId } = await signedInWithApi(web, 'searcher');
    const engineering = await post(token, '/api/v1/spaces', { workspaceId, name: 'Engineering', slug: 'engineering' });
    const marketing = await post(token, '/api/v1/spaces', { workspaceId, name: 'Marketing', slug: 'marketing' });
    const roadmap = await post(token, '/api/v1/pages', {
      workspaceId,
      spaceId: engineering.id,
      title: 'Quarterly roadmap',
      icon: '🗺️',
      markdown: 'The zeppelin launch moves to spring, after the hangar tests.',
    });
    await post(token, '/api/v1/pages', {
      workspaceId,
      spaceId: marketing.id,
      title: 'Launch campaign',
      markdown: 'Posters of the zeppelin over the harbour.',
    });

    // The search index may trail the write: wait until the API finds both pages, not a fixed time.
    await expect
      .poll(async () => (await web.t.request({ url: '/api/v1/search', token, query: { workspaceId, query: 'zeppelin' } })).body.data?.length, {
        timeout: 10_000,
      })
      .toBe(2);

    // The sidebar's space list was read before the spaces existed.
    await page.reload();
    await visible(page.getByRole('button', { name: 'Search' }));

    // Ctrl-K opens the palette; typing suggests the page; the arrow keys and Enter open it.
    await page.keyboard.press('Control+K');
    const box = page.getByRole('combobox', { name: 'Quick search' });
    await visible(box);
    await box.fill('Quarterly road');
    const suggestion = page.getByRole('option', { name: /Quarterly roadmap/ });
    await visible(suggestion);
    await visible(page.getByRole('option', { name: /Search for “Quarterly road”/ }));
    // The page's own icon marks it, as in the tree.
    expect(await suggestion.first().textContent()).toContain('🗺️');
    await web.shot(page, 'search-palette');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => suggestion.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/w/${hostname}/s/engineering/p/[^/]*${roadmap.id}$`));
    await box.waitFor({ state: 'hidden' });

    // Enter on the typed text gives the full results, with the matches highlighted.
    await page.keyboard.press('Control+K');
    await box.fill('zeppelin');
    await visible(page.getByRole('option', { name: /Search for “zeppelin”/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/w/${hostname}/search?q=zeppelin`);
    const results = page.getByRole('list', { name: 'Search results' });
    await visible(results.getByRole('link', { name: 'Quarterly roadmap' }));
    await visible(results.getByRole('link', { name: 'Launch campaign' }));
    expect(await results.locator('mark').first().textContent()).toMatch(/zeppelin/i);
    expect(await results.getByRole('listitem').filter({ hasText: 'Quarterly roadmap' }).textContent()).toMatch(/^🗺️Quarterly roadmap/);
    expect(await results.getByRole('listitem').filter({ hasText: 'Launch campaign' }).textContent()).toMatch(/^Launch campaign/);
    expect(await page.getByRole('textbox', { name: 'Search', exact: true }).inputValue()).toBe('zeppelin');
    await web.shot(page, 'search-results');

    // The space filter narrows the list and lives in the URL, so Back undoes it.
    await page.getByRole('combobox', { name: 'Space' }).click();
    await page.getByRole('option', { name: 'Marketing' }).click();
    await page.waitForURL(/space=marketing/);
    await visible(results.getByRole('link', { name: 'Launch campaign' }));
    await expect.poll(() => results.getByRole('link', { name: 'Quarterly roadmap' }).count()).toBe(0);
    await page.getByLabel('Type').getByText('Tasks', { exact: true }).click();
    await page.waitForURL(/type=task/);
    await visible(page.getByRole('status').filter({ hasText: /No results for “zeppelin” in Marketing among tasks/ }));
    await page.goBack();
    await page.goBack();
    await visible(results.getByRole('link', { name: 'Quarterly roadmap' }));
    await visible(results.getByRole('link', { name: 'Launch campaign' }));

    // A result opens its page.
    await results.getByRole('link', { name: 'Quarterly roadmap' }).click();
    await page.waitForURL(new RegExp(`/s/engineering/p/${roadmap.id}$`));
  }, 120_000); // many steps; the shared machine can be slow

  it('opens from the header button on a phone, in the dark theme, and says when nothing matches', async () => {
    const { page, token, hostname, workspaceId } = await signedInWithApi(web, 'phone', { width: 375, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const space = await post(token, '/api/v1/spaces', { workspaceId, name: 'Field notes', slug: 'field-notes' });
    await post(token, '/api/v1/pages', { workspaceId, spaceId: space.id, title: 'Harbour survey', markdown: 'Tide tables and mooring depths.' });
    await expect
      .poll(async () => (await web.t.request({ url: '/api/v1/search/suggest', token, query: { workspaceId, query: 'harbour su' } })).body.data?.length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await page.reload();

    await page.getByRole('button', { name: 'Search' }).click();
    const box = page.getByRole('combobox', { name: 'Quick search' });
    await box.fill('harbour su');
    await visible(page.getByRole('option', { name: /Harbour survey/ }));
    await web.shot(page, 'search-palette-phone-dark');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });

    await page.goto(`/w/${hostname}/search?q=${encodeURIComponent('quasar nebula')}`);
    await visible(page.getByRole('status').filter({ hasText: 'No results for “quasar nebula”' }));
    await page.getByRole('textbox', { name: 'Search', exact: true }).fill('mooring');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=mooring/);
    await visible(page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'Harbour survey' }));
    await web.shot(page, 'search-results-phone-dark');
  });
});
