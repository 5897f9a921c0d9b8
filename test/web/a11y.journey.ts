import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, handbookWithPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

// Evaluated rather than added with `addScriptTag`: the app's CSP (`script-src 'self'`) refuses an inline script tag.
const AXE = readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core's WCAG 2 A and AA rules on what the page shows now, in the light and the dark theme; prints what it finds. */
async function axeViolations(page: Page, screen: string): Promise<string[]> {
  const lines: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    lines.push(...(await axeRun(page, `${screen} (${scheme})`)));
  }
  return lines;
}

async function axeRun(page: Page, screen: string): Promise<string[]> {
  // A theme switch starts colour transitions (200 ms on a segmented control's labels): contrast is judged once they
  // end, not on a colour halfway between the two themes. Endless animations (a loader) are not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({ runOnly: ['wcag2a', 'wcag2aa'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  const lines = violations.flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) ${v.help} at ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  for (const line of lines) console.log(`[a11y] ${line}`);
  return lines;
}

describe('accessibility', () => {
  it('has no WCAG 2 A/AA violations on the sign-in screen, the workspace home, a page and the tasks board', async () => {
    const signIn = await web.newPage();
    await signIn.goto('/login');
    await visible(signIn.getByRole('button', { name: 'Sign in' }));
    const found = await axeViolations(signIn, 'sign-in');

    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'reader');
    const made = await handbookWithPage(web, token, workspaceId, 'Onboarding', '# Welcome\n\nRead this first.\n\n- one\n- two\n');
    for (const [title, status] of [
      ['Write the launch notes', 'todo'],
      ['Review the budget', 'in_progress'],
    ]) {
      const task = await web.t.request({
        method: 'POST',
        url: '/api/v1/tasks',
        token,
        body: { workspaceId, title, status, priority: 'high', labels: ['launch'] },
      });
      expect(task.status).toBe(201);
    }

    await page.goto(`/w/${hostname}`);
    await visible(page.getByRole('main').getByRole('link', { name: /Handbook/ }));
    found.push(...(await axeViolations(page, 'workspace home')));

    await page.goto(`/w/${hostname}/s/handbook/p/${made.slug}-${made.pageId}`);
    await visible(page.getByLabel('Page content').getByText('Read this first.'));
    found.push(...(await axeViolations(page, 'page')));

    await page.goto(`/w/${hostname}/tasks/board`);
    await visible(page.getByRole('region', { name: 'In progress' }).getByText('Review the budget'));
    found.push(...(await axeViolations(page, 'tasks board')));

    expect(found, found.join('\n')).toEqual([]);
  });

  it('shows the account as an avatar button on a phone, with its menu reachable, and the name beside it on a desktop', async () => {
    const { page, who } = await apiSignedInWorkspace(web, 'phone', { width: 375, height: 740 });
    await page.goto('/');
    const account = page.getByRole('button', { name: `Account: ${who.name}` });
    await visible(account);
    const box = (await account.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // Only the initials show: the name would not fit.
    expect(await account.getByText(who.name).isVisible()).toBe(false);
    await web.shot(page, 'header-phone');
    await account.click();
    await visible(page.getByRole('menu').getByText(who.email));
    await visible(page.getByRole('menu').getByText(who.name));
    await visible(page.getByRole('menuitem', { name: 'Sign out' }));
    await web.shot(page, 'header-phone-menu');

    const desktop = await apiSignedInWorkspace(web, 'desk');
    await desktop.page.goto('/');
    await visible(desktop.page.getByRole('button', { name: `Account: ${desktop.who.name}` }).getByText(desktop.who.name));
    await web.shot(desktop.page, 'header-desktop');
  });
});
