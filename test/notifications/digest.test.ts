import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDigests } from '../../src/areas/notifications/notifications.digest.js';
import { NOTIFICATION_DIGEST_JOB, notificationJobs } from '../../src/areas/notifications/notifications.jobs.js';
import { loadConfig } from '../../src/config.js';
import { collectJobs } from '../../src/jobs/registry.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { closedPort, decodeQuotedPrintable, type ReceivedMail, startSmtpServer } from '../mail/smtp.js';
import { createSpace, newPage } from '../pages/helpers.js';
import { dispatch, notificationsOf, pageEvent, recordAndDispatch, setPreferences, watchPage } from './helpers.js';

/** The email digest against a real SMTP server: one message per person per run, listing what is new, each mailed once. */

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let page: { id: string; spaceId: string };

/** The message as text: quoted-printable undone, its UTF-8 bytes decoded. */
const textOf = (mail: ReceivedMail) => Buffer.from(decodeQuotedPrintable(mail.raw), 'latin1').toString('utf8');
const subjectOf = (mail: ReceivedMail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '';
const mention = (title: string, ...users: TestUser[]) => pageEvent(ws, { ...page, title }, 'comment.created', { mentionedUserIds: users.map((u) => u.id) });
const digest = () => sendDigests(t.database.db, t.config);

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://kb.example.com' });
  ({
    workspace: { id: ws },
    admin,
    editor,
    viewer,
  } = await workspaceWithRoles(t));
  const space = await createSpace(t, admin, ws, { name: 'Docs', slug: 'docs' });
  page = { id: (await newPage(t, admin, ws, space.id, { title: 'Roadmap' })).id, spaceId: space.id };
  await dispatch(t);
  await digest(); // whatever creating the page made
  smtp.received.length = 0;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the email digest', () => {
  it('mails each person one message listing their new notifications of the kinds they want by email, then never again', async () => {
    await watchPage(t, editor, page.id);
    await recordAndDispatch(t, admin, [
      mention('Launch plan', editor, viewer),
      { workspaceId: ws, type: 'task.assigned', subject: { type: 'task', id: 'task-1' }, data: { title: 'Ship it', assigneeId: editor.id } },
      pageEvent(ws, { ...page, title: 'Roadmap v2' }, 'page.updated'), // a watch: not mailed by default
    ]);
    await recordAndDispatch(t, admin, [mention('Budget', editor)]);
    expect(await digest()).toEqual({ mailed: 2, notifications: 4, failed: 0 });
    expect(smtp.received).toHaveLength(2);
    const toEditor = smtp.received.find((m) => m.to.includes(editor.email))!;
    expect(subjectOf(toEditor)).toBe('3 new notifications on kb');
    const text = textOf(toEditor);
    expect(text).toContain('Admin mentioned you in “Launch plan”');
    expect(text).toContain('Admin mentioned you in “Budget”');
    expect(text).toContain('Admin assigned you “Ship it”');
    expect(text).not.toContain('Roadmap v2');
    expect(text).toContain(`https://kb.example.com/w/`);
    expect(text).toContain(`/s/docs/p/${page.id}`);
    const toViewer = smtp.received.find((m) => m.to.includes(viewer.email))!;
    expect(textOf(toViewer)).toContain('Admin mentioned you in “Launch plan”');

    // Stamped: the next run has nothing to send; the notifications themselves are still unread.
    expect(await digest()).toEqual({ mailed: 0, notifications: 0, failed: 0 });
    expect(smtp.received).toHaveLength(2);
    expect((await notificationsOf(t, editor)).filter((n) => n.readAt === null).length).toBeGreaterThanOrEqual(4);
    const stamped = await t.database.db.selectFrom('notifications').select(['kind', 'emailedAt']).where('userId', '=', editor.id).execute();
    expect(stamped.filter((r) => r.kind !== 'watch').every((r) => r.emailedAt !== null)).toBe(true);
    expect(stamped.filter((r) => r.kind === 'watch').every((r) => r.emailedAt === null)).toBe(true);
  });

  it('a burst of notifications between runs makes one mail', async () => {
    smtp.received.length = 0;
    for (let i = 0; i < 5; i++) await recordAndDispatch(t, admin, [mention(`Burst ${i}`, viewer)]);
    expect(await digest()).toMatchObject({ mailed: 1, notifications: 5 });
    expect(smtp.received).toHaveLength(1);
    expect(subjectOf(smtp.received[0])).toBe('5 new notifications on kb');
  });

  it('leaves out what was read, and kinds the person does not want by email', async () => {
    smtp.received.length = 0;
    await recordAndDispatch(t, admin, [mention('Already seen', viewer)]);
    const [seen] = (await notificationsOf(t, viewer)).filter((n) => n.subject.title === 'Already seen');
    expect((await t.request({ method: 'POST', url: `/api/v1/notifications/${seen.id}/read`, token: viewer.token })).status).toBe(200);
    await recordAndDispatch(t, admin, [mention('Made while wanted', editor)]);
    await setPreferences(t, editor, { mention: { email: false } });
    await recordAndDispatch(t, admin, [mention('Not wanted', editor)]);
    expect(await digest()).toEqual({ mailed: 0, notifications: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
    // Turned back on: what is still unread and unmailed goes out.
    await setPreferences(t, editor, { mention: { email: true } });
    expect(await digest()).toMatchObject({ mailed: 1, notifications: 1 });
    expect(textOf(smtp.received[0])).toContain('Made while wanted');
  });

  it('keeps what could not be sent for the next run', async () => {
    smtp.received.length = 0;
    await recordAndDispatch(t, admin, [mention('Retry me', viewer)]);
    const down = await sendDigests(t.database.db, { ...t.config, SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    expect(down).toMatchObject({ mailed: 0, failed: 1 });
    expect(await digest()).toMatchObject({ mailed: 1, notifications: 1 });
    expect(textOf(smtp.received[0])).toContain('Retry me');
  });

  it('is a recurring job every NOTIFY_DIGEST_MS that does nothing without SMTP_URL', async () => {
    const { recurring, handlers } = collectJobs(undefined, loadConfig({ NOTIFY_DIGEST_MS: '60000' }));
    expect(recurring).toContainEqual({ kind: NOTIFICATION_DIGEST_JOB, everyMs: 60_000 });
    expect(collectJobs().recurring).toContainEqual({ kind: NOTIFICATION_DIGEST_JOB, everyMs: 600_000 });
    expect(handlers.has(NOTIFICATION_DIGEST_JOB)).toBe(true);
    const handler = notificationJobs.handlers[NOTIFICATION_DIGEST_JOB];
    const log = { info() {}, error() {} };
    const jc = (config: typeof t.config) => ({ db: t.database.db, signal: new AbortController().signal, log, env: { config } as never });
    const job = { id: 'j', kind: NOTIFICATION_DIGEST_JOB, workspaceId: null, payload: {}, attempts: 1, maxAttempts: 3 };
    expect(await handler(job, jc({ ...t.config, SMTP_URL: undefined }))).toEqual({ skipped: 'SMTP_URL is not set' });
    smtp.received.length = 0;
    await recordAndDispatch(t, admin, [mention('Via the job', viewer)]);
    expect(await handler(job, jc(t.config))).toMatchObject({ mailed: 1 });
    expect(smtp.received).toHaveLength(1);
  });
});
