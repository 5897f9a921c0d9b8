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
async function axeViolations(page: Page, screen: string, tags: string[] = WCAG2): Promise<string[]> {
  const lines: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    lines.push(...(await axeRun(page, `${screen} (${scheme})`, tags)));
  }
  return lines;
}

const WCAG2 = ['wcag2a', 'wcag2aa'];
/** WCAG 2.2 adds target size (24 × 24 px), which axe-core leaves off unless asked. */
const WCAG22 = [...WCAG2, 'wcag21aa', 'wcag22aa'];

async function axeRun(page: Page, screen: string, tags: string[]): Promise<string[]> {
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
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const rules = tags.includes('wcag22aa') ? { 'target-size': { enabled: true } } : {};
    const result = await axe.run({ runOnly: tags, rules });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, tags);
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
  }, 120_000);

  it('passes WCAG 2.2 A/AA where issue 30 found faults: priorities, a task, goals, a published page with code and a checklist, its dialogs, history, the palette', async () => {
    const { page, token, hostname, workspaceId } = await apiSignedInWorkspace(web, 'auditor');
    const api = (method: 'POST' | 'PUT', url: string, body: object) => web.t.request({ method, url, token, body });
    expect((await api('PUT', `/api/v1/workspaces/${workspaceId}`, { settings: { allowPublicPages: true } })).status).toBe(200);
    const made = await handbookWithPage(
      web,
      token,
      workspaceId,
      'Runbook',
      '# Deploy\n\n- [ ] check the dashboards\n- [x] tell the team\n\n```js\nconst answer = 42;\nif (answer) return true;\n```\n',
    );
    expect(
      (
        await api('PUT', `/api/v1/pages/${made.pageId}`, {
          markdown:
            '# Deploy\n\nRead the dashboards first.\n\n- [ ] check the dashboards\n- [x] tell the team\n\n```js\nconst answer = 42;\nif (answer) return true;\n```\n',
        })
      ).status,
    ).toBe(200);
    expect((await api('POST', `/api/v1/pages/${made.pageId}/share`, {})).status).toBe(201);
    const tasks: Record<string, string> = {};
    for (const [title, priority, status] of [
      ['Ship the release', 'high', 'in_progress'],
      ['Tidy the backlog', 'medium', 'todo'],
      ['Rename the channel', 'low', 'done'],
    ]) {
      const task = await api('POST', '/api/v1/tasks', { workspaceId, title, status, priority });
      expect(task.status).toBe(201);
      tasks[title] = task.body.data.id;
    }
    const goal = await api('POST', `/api/workspaces/${workspaceId}/goals`, { title: 'Launch', horizon: 'short' });
    expect(goal.status).toBe(201);
    const goalId = goal.body.id as string;
    for (const id of Object.values(tasks)) expect((await api('POST', `/api/workspaces/${workspaceId}/goals/${goalId}/tasks`, { taskId: id })).status).toBe(200);

    await page.goto(`/w/${hostname}/tasks/list`);
    await visible(page.getByRole('table', { name: 'Tasks' }).getByText('Medium'));
    const found = await axeViolations(page, 'task list');

    await page.goto(`/w/${hostname}/tasks/board`);
    await visible(page.getByRole('region', { name: 'To do' }).getByText('Medium'));
    found.push(...(await axeViolations(page, 'task board')));

    await page.goto(`/w/${hostname}/tasks/${tasks['Tidy the backlog']}`);
    await visible(page.getByRole('button', { name: 'Complete' }));
    found.push(...(await axeViolations(page, 'task')));

    await page.goto(`/w/${hostname}/goals`);
    await visible(page.getByRole('list', { name: 'Tasks of Launch' }).getByRole('link', { name: 'Rename the channel' }));
    found.push(...(await axeViolations(page, 'goals')));

    const pagePath = `/w/${hostname}/s/handbook/p/${made.slug}-${made.pageId}`;
    await page.goto(pagePath);
    const content = page.getByRole('textbox', { name: 'Page content' });
    await visible(content.locator('pre code span[class^="hljs-"]'));
    // Checklist boxes: a target of at least 24 × 24 px (WCAG 2.2, 2.5.8).
    for (const box of await content.locator('ul[data-type="taskList"] li > label').all()) {
      const rect = (await box.boundingBox())!;
      if (rect.width < 24 || rect.height < 24) found.push(`checklist box: ${rect.width} × ${rect.height} px`);
    }
    found.push(...(await axeViolations(page, 'page with code and a checklist', WCAG22)));
    await web.shot(page, 'a11y-page-dark');

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const share = page.getByRole('dialog', { name: /Share/ });
    await visible(share.getByText('Who has access'));
    // The "×" is a button named "Close" (the dialog's footer has a "Close" button of its own too).
    await visible(share.getByLabel('Close', { exact: true }));
    found.push(...(await axeViolations(page, 'share dialog')));
    await share.getByLabel('Close', { exact: true }).click();
    await share.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Comments' }).click();
    const comments = page.getByRole('dialog', { name: 'Comments' });
    await visible(comments.getByRole('button', { name: 'Close', exact: true }));
    await visible(comments.getByRole('textbox').first());
    found.push(...(await axeViolations(page, 'comments drawer')));
    await comments.getByRole('button', { name: 'Close', exact: true }).click();
    await comments.waitFor({ state: 'hidden' });

    await page.goto(`${pagePath}/history`);
    await (await visible(page.getByRole('button', { name: /^Version 1\b/ }))).click();
    await visible(page.getByText('Version 1: the page as it was created'));
    found.push(...(await axeViolations(page, 'history with a version selected')));

    // The palette: the input's active descendant is a row that exists.
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: 'Quick search' });
    await visible(input);
    await input.fill('Runbook');
    await visible(page.getByRole('option', { name: /Runbook/ }).nth(1));
    await input.press('ArrowDown');
    const active = await input.getAttribute('aria-activedescendant');
    expect(active).toBeTruthy();
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator(`[id="${active}"]`).textContent()).toContain('Runbook');
    found.push(...(await axeViolations(page, 'search palette')));

    expect(found, found.join('\n')).toEqual([]);
  }, 180_000);

  it('describes every screen of the app (meta description, title) and serves a robots.txt', async () => {
    const page = await web.newPage();
    for (const path of ['/login', '/w/nowhere/tasks']) {
      await page.goto(path);
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/knowledge base/);
      expect(await page.title()).toMatch(/^kb/);
    }
    const robots = await page.request.get('/robots.txt');
    expect(robots.status()).toBe(200);
    expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
    expect(await robots.text()).toContain('User-agent: *');
  });

  it('shows the account as an avatar button on a phone, with its menu reachable, and the name beside it on a desktop', async () => {
    const { page, who } = await apiSignedInWorkspace(web, 'phone', { width: 375, height: 740 });
    await page.goto('/');
    const account = page.getByRole('button', { name: `Account: ${who.name}` });
    await visible(account);
    const box = (await account.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // Only the initials show: the name would not fit.
    expect(await account.getByText(who.name, { exact: true }).isVisible()).toBe(false);
    await web.shot(page, 'header-phone');
    await account.click();
    await visible(page.getByRole('menu').getByText(who.email));
    await visible(page.getByRole('menu').getByText(who.name));
    await visible(page.getByRole('menuitem', { name: 'Sign out' }));
    await web.shot(page, 'header-phone-menu');

    const desktop = await apiSignedInWorkspace(web, 'desk');
    await desktop.page.goto('/');
    await visible(desktop.page.getByRole('button', { name: `Account: ${desktop.who.name}` }).getByText(desktop.who.name, { exact: true }));
    await web.shot(desktop.page, 'header-desktop');
  });
});
