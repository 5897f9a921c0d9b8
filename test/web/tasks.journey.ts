import { describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, handbookWithPage, useWebApp, visible } from './harness.js';

const web = useWebApp();

describe('tasks', () => {
  it('creates a task on the board, drags it to In progress, filters by label and completes it', async () => {
    const { page, who, token, hostname, workspaceId: ws } = await apiSignedInWorkspace(web, 'tasker');
    // Another task, made through the API: the label filter must leave it out.
    const other = await web.t.request({ method: 'POST', url: '/api/v1/tasks', token, body: { workspaceId: ws, title: 'Water the plants' } });
    expect(other.status).toBe(201);

    await page.goto(`/w/${hostname}/tasks`);
    await page.waitForURL('**/tasks/board');
    await visible(page.getByRole('region', { name: 'To do' }).getByText('Water the plants'));

    // An empty title is refused next to the field, before anything is sent.
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await visible(dialog.getByText('A task needs a title.'));

    await dialog.getByLabel('Title').fill('Write the launch notes');
    await dialog.getByLabel('Description').fill('What changed, for whom, and how to try it.');
    await dialog.getByLabel('Priority').selectOption('high');
    await dialog.getByLabel('Due date').fill('2030-05-01');
    await dialog.getByLabel('Labels').fill('launch');
    await dialog.getByLabel('Labels').press('Enter');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const todo = page.getByRole('region', { name: 'To do' });
    const inProgress = page.getByRole('region', { name: 'In progress' });
    await visible(todo.getByRole('link', { name: 'Write the launch notes' }));

    // Keyboard drag (dnd-kit's keyboard sensor): lift with Space, one column right, drop with Space.
    // The dialog gives focus back to "New task" as it closes; only then take the card's handle.
    const newTask = page.getByRole('button', { name: 'New task' });
    await expect.poll(() => newTask.evaluate((el) => el === document.activeElement)).toBe(true);
    const handle = page.getByRole('button', { name: 'Move Write the launch notes' });
    await handle.focus();
    // Each step waits for what a screen reader hears (dnd-kit's live region), as a person would.
    const heard = () => page.locator('[id^="DndLiveRegion"]').textContent();
    await page.keyboard.press('Space');
    await expect.poll(heard).toContain('Picked up “Write the launch notes”');
    await page.keyboard.press('ArrowRight');
    await expect.poll(heard).toBe('“Write the launch notes” is over In progress.');
    await page.keyboard.press('Space');
    await visible(inProgress.getByRole('link', { name: 'Write the launch notes' }));
    await web.shot(page, 'tasks-board');

    const tasks = await web.t.request({ url: '/api/v1/tasks', token, query: { workspaceId: ws, label: 'launch' } });
    expect(tasks.body.data).toHaveLength(1);
    const task = tasks.body.data[0];
    await expect.poll(async () => (await web.t.request({ url: `/api/v1/tasks/${task.id}`, token })).body.data.status).toBe('in_progress');
    expect(task).toMatchObject({ title: 'Write the launch notes', priority: 'high', dueDate: '2030-05-01', labels: ['launch'] });

    await page.reload();
    await visible(page.getByRole('region', { name: 'In progress' }).getByRole('link', { name: 'Write the launch notes' }));
    expect(await page.getByRole('region', { name: 'To do' }).getByText('Write the launch notes').count()).toBe(0);

    // A move the service refuses is undone on the board, with the service's reason in a red notification.
    await page.route('**/api/v1/tasks/*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'FORBIDDEN', message: 'You may not change this task.', details: {} } }),
          })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Move Write the launch notes' }).focus();
    await page.keyboard.press('Space');
    await expect.poll(heard).toContain('Picked up “Write the launch notes”');
    await page.keyboard.press('ArrowRight');
    await expect.poll(heard).toBe('“Write the launch notes” is over Done.');
    await page.keyboard.press('Space');
    await visible(page.getByText('You may not change this task.'));
    await visible(page.getByRole('region', { name: 'In progress' }).getByRole('link', { name: 'Write the launch notes' }));
    expect(await page.getByRole('region', { name: 'Done' }).getByText('Write the launch notes').count()).toBe(0);
    await page.unroute('**/api/v1/tasks/*');

    // A mouse drag works too: In progress to Done. The handle is taken from its column: the refused drop's overlay
    // (a copy of the card with the same handle) may still be fading out beside it.
    const inProgressHandle = page.getByRole('region', { name: 'In progress' }).getByRole('button', { name: 'Move Write the launch notes' });
    await visible(inProgressHandle);
    // A pointer drag that starts while the refused drop still animates is not taken up: wait for its overlay to go.
    await expect.poll(() => page.getByRole('button', { name: 'Move Write the launch notes' }).count()).toBe(1);
    const from = await inProgressHandle.boundingBox();
    const to = await page.getByRole('region', { name: 'Done' }).boundingBox();
    if (!from || !to) throw new Error('no boxes');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 60, { steps: 10 });
    await page.mouse.up();
    await visible(page.getByRole('region', { name: 'Done' }).getByRole('link', { name: 'Write the launch notes' }));
    await expect.poll(async () => (await web.t.request({ url: `/api/v1/tasks/${task.id}`, token })).body.data.status).toBe('done');
    // Back to in progress through the API, so that completing it below is a real change.
    await web.t.request({ method: 'PUT', url: `/api/v1/tasks/${task.id}`, token, body: { status: 'in_progress' } });

    // The list, filtered by label: the filter is in the URL and leaves the other task out.
    await page.getByRole('tab', { name: 'List' }).click();
    await page.waitForURL('**/tasks/list');
    await visible(page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'Water the plants' }));
    await page.getByLabel('Label').selectOption('launch');
    await page.waitForURL('**/tasks/list?label=launch');
    await page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'Water the plants' }).waitFor({ state: 'detached' });
    await visible(page.getByRole('table', { name: 'Tasks' }).getByRole('link', { name: 'Write the launch notes' }));
    await web.shot(page, 'tasks-list');

    // The detail: every field shown for editing; complete it.
    await page.getByRole('link', { name: 'Write the launch notes' }).click();
    await page.waitForURL(`**/tasks/${task.id}`);
    await visible(page.getByRole('heading', { name: 'Write the launch notes' }));
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('in_progress');
    expect(await page.getByLabel('Due date').inputValue()).toBe('2030-05-01');
    await page.getByRole('button', { name: 'Complete' }).click();
    await visible(page.getByLabel('Status: Done'));
    await web.shot(page, 'task-detail');

    // On a phone, the columns stack and every card is still reachable.
    const phone = await web.newPage({ width: 375, height: 800 });
    await phone.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } });
    await phone.goto(`/w/${hostname}/tasks/board`);
    await visible(phone.getByRole('region', { name: 'Done' }).getByRole('link', { name: 'Write the launch notes' }));
    await web.shot(phone, 'tasks-board-phone');
    const done = await web.t.request({ url: `/api/v1/tasks/${task.id}`, token });
    expect(done.body.data.status).toBe('done');
    expect(done.body.data.completedAt).toBeTruthy();
  }, 150_000);

  it('links a task to the page it is about, and opens the page from the task', async () => {
    const { page, token, hostname, workspaceId: ws } = await apiSignedInWorkspace(web, 'linker');
    const { pageId } = await handbookWithPage(web, token, ws, 'Launch checklist', 'Everything before the launch.');
    const made = await web.t.request({ method: 'POST', url: '/api/v1/tasks', token, body: { workspaceId: ws, title: 'Check the list' } });
    expect(made.status).toBe(201);

    await page.goto(`/w/${hostname}/tasks/${made.body.data.id}`);
    await visible(page.getByRole('heading', { name: 'Check the list' }));
    const picker = page.getByLabel('Page', { exact: true }).and(page.locator('input'));
    await picker.fill('Launch');
    await page.getByRole('option', { name: 'Launch checklist' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await visible(page.getByText('Task saved.'));
    await expect.poll(async () => (await web.t.request({ url: `/api/v1/tasks/${made.body.data.id}`, token })).body.data.pageId).toBe(pageId);
    await web.shot(page, 'task-page-link');

    await page.getByRole('link', { name: 'Launch checklist' }).click();
    await page.waitForURL(`**/s/handbook/p/*${pageId}`);
    await expect.poll(() => page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Launch checklist');
  }, 90_000);
});
