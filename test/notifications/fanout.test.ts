import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent, EventSubjectType, EventType } from '../../src/areas/events/events.record.js';
import { fanOutNotifications } from '../../src/areas/notifications/notifications.fanout.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { addSpaceMembers, createSpace, newPage } from '../pages/helpers.js';
import { dispatch, notificationsOf, pageEvent, recordAndDispatch, setPreferences, unreadCountOf, watchPage, watchSpace } from './helpers.js';

/*
 * Who an event notifies (issue 16), with events recorded the way the areas record them and fanned out by the real
 * dispatcher: the rules, one notification per recipient and event, the strongest kind, never the actor, never someone
 * who cannot read what the event names, and the recipient's preferences.
 */

let t: TestApp;
let ws: string;
let admin: TestUser;
let editor: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let space: { id: string };
let privateSpace: { id: string };

const about = async (user: TestUser, title: string) => (await notificationsOf(t, user)).filter((n) => n.subject.title === title);
const kindsAbout = async (user: TestUser, title: string) => (await about(user, title)).map((n) => n.kind);

async function page(title: string, spaceId = space.id) {
  const p = await newPage(t, admin, ws, spaceId, { title });
  await dispatch(t); // whatever the pages area recorded for the creation
  return { id: p.id, spaceId, title };
}

beforeAll(async () => {
  t = await createTestApp();
  ({
    workspace: { id: ws },
    admin,
    editor,
    viewer,
    outsider,
  } = await workspaceWithRoles(t));
  space = await createSpace(t, admin, ws, { name: 'Public' });
  privateSpace = await createSpace(t, admin, ws, { name: 'Private', visibility: 'private' });
  await addSpaceMembers(t, admin, ws, privateSpace.id, { userIds: [editor.id], role: 'editor' });
});
afterAll(async () => {
  await t?.close();
});

describe('the rules', () => {
  it('a mention notifies the people mentioned: never the actor, nor someone outside the workspace', async () => {
    const p = await page('Mentions');
    await recordAndDispatch(t, admin, [pageEvent(ws, p, 'page.updated', { mentionedUserIds: [editor.id, admin.id, outsider.id, 'no-such-user'] })]);
    const [n, ...more] = await about(editor, 'Mentions');
    expect(more).toEqual([]);
    expect(n).toMatchObject({
      kind: 'mention',
      workspaceId: ws,
      eventType: 'page.updated',
      actor: { id: admin.id, name: 'Admin' },
      subject: { type: 'page', id: p.id, title: 'Mentions' },
      pageId: p.id,
      spaceId: space.id,
      readAt: null,
    });
    expect(await about(admin, 'Mentions')).toEqual([]);
    expect(await notificationsOf(t, outsider)).toEqual([]);
    const stored = await t.database.db.selectFrom('notifications').select('userId').where('pageId', '=', p.id).execute();
    expect(stored.map((r) => r.userId)).toEqual([editor.id]);
  });

  it('a reply notifies the others in the thread; someone who qualifies twice gets one notification, of the strongest kind', async () => {
    const p = await page('Thread');
    await watchPage(t, editor, p.id);
    await watchPage(t, viewer, p.id);
    await recordAndDispatch(t, admin, [
      {
        workspaceId: ws,
        type: 'comment.created',
        subject: { type: 'comment', id: 'comment-1' },
        spaceId: space.id,
        pageId: p.id,
        data: { title: 'Thread', mentionedUserIds: [editor.id], threadParticipantIds: [editor.id, viewer.id, admin.id] },
      },
    ]);
    expect(await kindsAbout(editor, 'Thread')).toEqual(['mention']);
    expect(await kindsAbout(viewer, 'Thread')).toEqual(['reply']);
    expect(await kindsAbout(admin, 'Thread')).toEqual([]);
  });

  it('fanning out the same events again makes nothing new (one notification per recipient and event)', async () => {
    const p = await page('Twice');
    await recordAndDispatch(t, admin, [pageEvent(ws, p, 'page.updated', { mentionedUserIds: [viewer.id] })]);
    const rows = await t.database.db.selectFrom('domainEvents').selectAll().where('pageId', '=', p.id).where('type', '=', 'page.updated').execute();
    const events: DomainEvent[] = rows.map((r) => ({
      ...r,
      type: r.type as EventType,
      subjectType: r.subjectType as EventSubjectType,
      data: r.data as Record<string, unknown>,
    }));
    expect(await fanOutNotifications(t.database.db, events)).toEqual([]);
    expect(await kindsAbout(viewer, 'Twice')).toEqual(['mention']);
  });

  it('an assignment notifies the assignee, unless they assigned themselves', async () => {
    await recordAndDispatch(t, admin, [
      { workspaceId: ws, type: 'task.assigned', subject: { type: 'task', id: 'task-1' }, data: { title: 'Fix the roof', assigneeId: viewer.id } },
      { workspaceId: ws, type: 'task.created', subject: { type: 'task', id: 'task-2' }, data: { title: 'Mine', assigneeId: admin.id } },
      { workspaceId: ws, type: 'task.created', subject: { type: 'task', id: 'task-3' }, data: { title: 'Paint', assigneeId: editor.id } },
    ]);
    const [n] = await about(viewer, 'Fix the roof');
    expect(n).toMatchObject({ kind: 'assigned', eventType: 'task.assigned', subject: { type: 'task', id: 'task-1', title: 'Fix the roof' }, pageId: null });
    expect(await kindsAbout(editor, 'Paint')).toEqual(['assigned']);
    expect(await about(admin, 'Mine')).toEqual([]);
  });

  it('watchers of a page or of its space hear of its page and comment events; a run of updates makes one notice until read', async () => {
    const watched = await createSpace(t, admin, ws, { name: 'Watched' });
    const p = await page('Watched page', watched.id);
    await watchSpace(t, viewer, watched.id);
    await recordAndDispatch(t, admin, [pageEvent(ws, p, 'page.created')]);
    expect(await kindsAbout(viewer, 'Watched page')).toEqual(['watch']);

    // While that notice is unread, updates to the page add nothing (two in one dispatch, then one more)…
    await recordAndDispatch(t, admin, [pageEvent(ws, p), pageEvent(ws, p)]);
    await recordAndDispatch(t, admin, [pageEvent(ws, p)]);
    const [created, ...none] = await about(viewer, 'Watched page');
    expect(none).toEqual([]);
    // …once read, the next update notifies again, and the ones after it collapse into it until it is read.
    expect((await t.request({ method: 'POST', url: `/api/v1/notifications/${created.id}/read`, token: viewer.token })).status).toBe(200);
    await recordAndDispatch(t, admin, [pageEvent(ws, p)]);
    await recordAndDispatch(t, admin, [pageEvent(ws, p), pageEvent(ws, p)]);
    expect((await about(viewer, 'Watched page')).map((n) => [n.eventType, n.readAt === null])).toEqual([
      ['page.updated', true],
      ['page.created', false],
    ]);

    // Comments on the page too; a task in the space is not a page or comment event.
    await recordAndDispatch(t, admin, [
      {
        workspaceId: ws,
        type: 'comment.resolved',
        subject: { type: 'comment', id: 'c-9' },
        spaceId: watched.id,
        pageId: p.id,
        data: { title: 'Watched page' },
      },
      { workspaceId: ws, type: 'task.updated', subject: { type: 'task', id: 't-9' }, spaceId: watched.id, data: { title: 'Watched page' } },
    ]);
    const types = (await about(viewer, 'Watched page')).map((n) => n.eventType);
    expect(types).toContain('comment.resolved');
    expect(types).not.toContain('task.updated');
    // The actor's own changes never notify them, even on what they watch.
    await watchPage(t, admin, p.id);
    await recordAndDispatch(t, admin, [pageEvent(ws, p, 'page.moved')]);
    expect((await about(admin, 'Watched page')).length).toBe(0);
  });
});

describe('access', () => {
  it('nobody hears of a restricted page they are shut out of, whatever the rule', async () => {
    const p = await page('Secret plan');
    const restricted = await t.request({
      method: 'PUT',
      url: `/api/v1/pages/${p.id}/restriction`,
      token: admin.token,
      body: { grants: [{ userId: admin.id, role: 'editor' }] },
    });
    expect(restricted.status).toBe(200);
    await watchSpace(t, admin, space.id);
    await watchSpace(t, viewer, space.id);
    await recordAndDispatch(t, editor, [pageEvent(ws, p, 'page.updated', { mentionedUserIds: [viewer.id] })]);
    expect(await about(viewer, 'Secret plan')).toEqual([]);
    // The one person the page is open to still hears of it.
    expect(await kindsAbout(admin, 'Secret plan')).toEqual(['watch']);
  });

  it('nobody hears of a private space they are not in', async () => {
    const p = await page('Private page', privateSpace.id);
    await recordAndDispatch(t, admin, [pageEvent(ws, p, 'page.updated', { mentionedUserIds: [editor.id, viewer.id] })]);
    expect(await kindsAbout(editor, 'Private page')).toEqual(['mention']);
    expect(await about(viewer, 'Private page')).toEqual([]);
    const stored = await t.database.db.selectFrom('notifications').select('userId').where('pageId', '=', p.id).execute();
    expect(stored.map((r) => r.userId)).toEqual([editor.id]);
  });
});

describe('preferences', () => {
  it('a kind turned off makes nothing; in-app off but email on keeps a row for the digest only', async () => {
    const p = await page('Prefs');
    await watchPage(t, viewer, p.id);
    const before = await unreadCountOf(t, viewer);
    await setPreferences(t, viewer, { reply: { inApp: false, email: false }, watch: { inApp: false, email: true } });
    await recordAndDispatch(t, admin, [
      {
        workspaceId: ws,
        type: 'comment.created',
        subject: { type: 'comment', id: 'c-p' },
        spaceId: space.id,
        pageId: p.id,
        data: { title: 'Prefs', threadParticipantIds: [viewer.id] },
      },
      pageEvent(ws, p, 'page.published'),
    ]);
    const rows = await t.database.db
      .selectFrom('notifications')
      .select(['kind', 'eventType', 'inApp', 'email'])
      .where('userId', '=', viewer.id)
      .where('pageId', '=', p.id)
      .execute();
    // The comment: a reply (turned off) would win over watch; the person still hears of it as a watcher (digest only).
    expect(rows.filter((r) => r.eventType === 'comment.created')).toEqual([{ kind: 'watch', eventType: 'comment.created', inApp: false, email: true }]);
    expect(rows.filter((r) => r.eventType === 'page.published')).toEqual([{ kind: 'watch', eventType: 'page.published', inApp: false, email: true }]);
    expect((await about(viewer, 'Prefs')).filter((n) => n.eventType !== 'page.created')).toEqual([]);
    expect(await unreadCountOf(t, viewer)).toBe(before);
    // A reply on a page the person does not watch: both off, nothing at all.
    const quiet = await page('Prefs quiet', (await createSpace(t, admin, ws, { name: 'Quiet' })).id);
    await recordAndDispatch(t, admin, [
      {
        workspaceId: ws,
        type: 'comment.created',
        subject: { type: 'comment', id: 'c-q' },
        spaceId: quiet.spaceId,
        pageId: quiet.id,
        data: { title: 'Prefs quiet', threadParticipantIds: [viewer.id] },
      },
    ]);
    expect(
      await t.database.db
        .selectFrom('notifications')
        .select(['kind', 'inApp', 'email'])
        .where('userId', '=', viewer.id)
        .where('subjectId', '=', 'c-q')
        .execute(),
    ).toEqual([]);
    await setPreferences(t, viewer, { reply: { inApp: true, email: false }, watch: { inApp: true, email: false } });
  });
});
