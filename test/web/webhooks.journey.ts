import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { Worker } from '../../src/jobs/worker.js';
import { startReceiver, webhookWorker } from '../webhooks/helpers.js';
import { joinByInvitation } from '../helpers/factories.js';
import { apiSignedInWorkspace, person, useWebApp, visible } from './harness.js';

const web = useWebApp();
let worker: Worker | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterAll(async () => {
  await worker?.stop(1000);
  await receiver?.close();
});

describe('webhooks', () => {
  it('an admin registers an endpoint in Settings → Webhooks, copies its secret, pings it, reads the log, redelivers, disables, rotates and deletes', async () => {
    const { page, token, hostname, workspaceId, who } = await apiSignedInWorkspace(web, 'ana');
    // The endpoint is a real server on 127.0.0.1: this service lets webhooks reach it (the setting is read per request).
    web.t.config.WEBHOOK_ALLOW_PRIVATE_NETWORK = true;
    receiver = await startReceiver();
    worker = webhookWorker(web.t);

    await page.goto(`/w/${hostname}/settings/webhooks`);
    await visible(page.getByText('No webhooks yet.'));
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
    await page.getByRole('textbox', { name: 'Description' }).fill('Chat bot');
    await page.getByLabel('Send every event type').uncheck();
    await page.getByRole('combobox', { name: 'Events' }).click();
    await page.getByRole('option', { name: 'Task created' }).click();
    await page.getByRole('option', { name: 'Comment created' }).click();
    await page.getByRole('dialog').getByText('New webhook', { exact: true }).click(); // closes the list, not the dialog
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await visible(page.getByText('Copy the signing secret now'));
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await web.shot(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'Done' }).click();

    const table = page.getByRole('table', { name: 'Webhooks' });
    const row = table.getByRole('row', { name: new RegExp(receiver.url.replace(/[.:/]/g, '\\$&')) });
    await visible(row.getByText('Task created, Comment created'));
    await visible(row.getByText('Enabled'));

    // A test ping: signed with the secret just shown, listed as delivered.
    await row.getByRole('button', { name: /^Deliveries/ }).click();
    await page.getByRole('button', { name: 'Send test ping' }).click();
    const log = page.getByRole('table', { name: 'Deliveries' });
    await visible(log.getByText('delivered'), 15_000);
    await visible(log.getByText('webhook.ping'));
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ type: 'webhook.ping' });
    await web.shot(page, 'webhooks-deliveries');

    await log.getByRole('button', { name: 'Redeliver webhook.ping' }).click();
    await expect.poll(() => receiver?.received.length, { timeout: 15_000 }).toBe(2);
    expect(receiver.received[1].headers['webhook-id']).toBe(got.headers['webhook-id']);
    await page.keyboard.press('Escape');

    // Disable, then enable again.
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Disable' }).click();
    await visible(row.getByText('Disabled'));
    await visible(row.getByText('disabled by an admin'));
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Enable' }).click();
    await visible(row.getByText('Enabled'));
    await web.shot(page, 'webhooks-list');

    // On a phone the section fits the screen (the table scrolls inside it).
    const phone = await web.newPage({ width: 375, height: 800 });
    expect((await phone.request.post('/api/v1/auth/session', { data: { email: who.email, password: who.password } })).ok()).toBe(true);
    await phone.goto(`/w/${hostname}/settings/webhooks`);
    await visible(phone.getByRole('table', { name: 'Webhooks' }));
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await web.shot(phone, 'webhooks-phone');

    // Rotate: a new secret, shown once.
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await visible(page.getByText('Copy the signing secret now'));
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Done' }).click();

    // Delete.
    await row.getByRole('button', { name: /^More actions/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await visible(page.getByText('No webhooks yet.'));
    const list = await web.t.request({ url: '/api/v1/webhooks', token, query: { workspaceId } });
    expect(list.body.data).toEqual([]);

    // A non-admin is not offered the section.
    const ben = person('ben');
    const signup = await web.t.request({ method: 'POST', url: '/api/v1/auth/signup', body: ben });
    await joinByInvitation(web.t, workspaceId, token, { id: signup.body.data.user.id, token: signup.body.data.token }, 'editor');
    const benPage = await web.newPage();
    expect((await benPage.request.post('/api/v1/auth/session', { data: { email: ben.email, password: ben.password } })).ok()).toBe(true);
    await benPage.goto(`/w/${hostname}/settings/general`);
    await visible(benPage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'General' }));
    expect(await benPage.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
  });
});
