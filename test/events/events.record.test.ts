import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportWorker, startExport, waitForExport } from '../exports/helpers.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type TestUser, workspaceWithRoles } from '../helpers/factories.js';
import { importFile, importWorker, makeZip, postImport, waitForImport } from '../imports/helpers.js';
import { invite, tokenOf } from '../invitations/helpers.js';
import { createJob, researchWorker, waitForJob } from '../research/helpers.js';
import { allowPublicPages } from '../shares/helpers.js';
import { createPage, createSpace } from '../spaces/helpers.js';
import { docMentioning, eventsOf, mentionText } from './helpers.js';

let t: TestApp;
let ws: Awaited<ReturnType<typeof workspaceWithRoles>>;
let space: { id: string };
let newcomer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ws = await workspaceWithRoles(t);
  await allowPublicPages(t, ws.admin, ws.workspace.id, true);
  space = await createSpace(t, ws.admin, ws.workspace.id, { name: 'Handbook' });
  newcomer = await createUser(t, 'Newcomer');
});
afterAll(() => t.close());

/** Calls the API as `user` and expects a 2xx, answering the body's data. */
async function call(user: TestUser | null, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const res = await t.request({ method, url, token: user?.token, body });
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body?.data ?? res.body;
}

interface Case {
  name: string;
  /** Makes the change; answers what the one event must match. */
  change: () => Promise<{ actor: string | null; type: string; subject: [string, string]; spaceId: string | null; pageId: string | null; data: object }>;
}

const state: Record<string, string> = {};

const cases: Case[] = [
  {
    name: 'creating a page (mentioning someone)',
    change: async () => {
      const page = await call(ws.editor, 'POST', '/api/v1/pages', {
        workspaceId: ws.workspace.id,
        spaceId: space.id,
        title: 'Plan',
        content: docMentioning([ws.viewer.id]),
      });
      state.page = page.id;
      return {
        actor: ws.editor.id,
        type: 'page.created',
        subject: ['page', page.id],
        spaceId: space.id,
        pageId: page.id,
        data: { title: 'Plan', parentId: null, mentionedUserIds: [ws.viewer.id] },
      };
    },
  },
  {
    name: 'renaming a page',
    change: async () => {
      await call(ws.editor, 'PUT', `/api/v1/pages/${state.page}`, { title: 'The plan' });
      return {
        actor: ws.editor.id,
        type: 'page.updated',
        subject: ['page', state.page!],
        spaceId: space.id,
        pageId: state.page!,
        data: { title: 'The plan', from: 'Plan', to: 'The plan', titleChanged: true, contentChanged: false, mentionedUserIds: [], version: 2 },
      };
    },
  },
  {
    name: 'editing content through REST (a new mention, the old one kept)',
    change: async () => {
      await call(ws.editor, 'PUT', `/api/v1/pages/${state.page}`, { content: docMentioning([ws.viewer.id, ws.admin.id], 'Now') });
      return {
        actor: ws.editor.id,
        type: 'page.updated',
        subject: ['page', state.page!],
        spaceId: space.id,
        pageId: state.page!,
        data: { contentChanged: true, titleChanged: false, mentionedUserIds: [ws.admin.id] },
      };
    },
  },
  {
    name: 'moving a page under another',
    change: async () => {
      const parent = await createPage(t, ws.editor, ws.workspace.id, space.id, 'Parent');
      state.parent = parent.id;
      await call(ws.editor, 'PUT', `/api/v1/pages/${state.page}`, { parentId: parent.id });
      return {
        actor: ws.editor.id,
        type: 'page.moved',
        subject: ['page', state.page!],
        spaceId: space.id,
        pageId: state.page!,
        data: { title: 'The plan', from: null, to: parent.id },
      };
    },
  },
  {
    name: 'trashing a page',
    change: async () => {
      await call(ws.editor, 'DELETE', `/api/v1/pages/${state.parent}`);
      return {
        actor: ws.editor.id,
        type: 'page.trashed',
        subject: ['page', state.parent!],
        spaceId: space.id,
        pageId: state.parent!,
        data: { title: 'Parent', pageCount: 2 },
      };
    },
  },
  {
    name: 'restoring a page from the trash',
    change: async () => {
      await call(ws.editor, 'POST', `/api/v1/pages/${state.parent}/recover`, { workspaceId: ws.workspace.id });
      return {
        actor: ws.editor.id,
        type: 'page.restored',
        subject: ['page', state.parent!],
        spaceId: space.id,
        pageId: state.parent!,
        data: { title: 'Parent', pageCount: 2 },
      };
    },
  },
  {
    name: 'publishing a page',
    change: async () => {
      const share = await call(ws.editor, 'POST', `/api/v1/pages/${state.page}/share`, {});
      return {
        actor: ws.editor.id,
        type: 'page.published',
        subject: ['page', state.page!],
        spaceId: space.id,
        pageId: state.page!,
        data: { title: 'The plan', shareId: share.share.id, newLink: false },
      };
    },
  },
  {
    name: 'commenting (with a mention)',
    change: async () => {
      const c = await call(ws.editor, 'POST', '/api/v1/comments', {
        workspaceId: ws.workspace.id,
        pageId: state.page,
        text: `Look ${mentionText(ws.viewer.id)}`,
      });
      state.comment = c.id;
      return {
        actor: ws.editor.id,
        type: 'comment.created',
        subject: ['comment', c.id],
        spaceId: space.id,
        pageId: state.page!,
        data: { title: 'The plan', parentCommentId: null, threadParticipantIds: [], mentionedUserIds: [ws.viewer.id] },
      };
    },
  },
  {
    name: 'replying in a thread',
    change: async () => {
      const first = await call(ws.admin, 'POST', '/api/v1/comments', {
        workspaceId: ws.workspace.id,
        pageId: state.page,
        text: 'Agreed',
        parentId: state.comment,
      });
      const reply = await call(ws.editor, 'POST', '/api/v1/comments', { workspaceId: ws.workspace.id, pageId: state.page, text: 'Thanks', parentId: first.id });
      return {
        actor: ws.editor.id,
        type: 'comment.created',
        subject: ['comment', reply.id],
        spaceId: space.id,
        pageId: state.page!,
        data: { parentCommentId: first.id, threadParticipantIds: [ws.editor.id, ws.admin.id], mentionedUserIds: [] },
      };
    },
  },
  {
    name: 'resolving a comment',
    change: async () => {
      await call(ws.admin, 'POST', `/api/v1/comments/${state.comment}/resolve`, { workspaceId: ws.workspace.id, resolved: true });
      return {
        actor: ws.admin.id,
        type: 'comment.resolved',
        subject: ['comment', state.comment!],
        spaceId: space.id,
        pageId: state.page!,
        data: { title: 'The plan', authorId: ws.editor.id },
      };
    },
  },
  {
    name: 'creating a task',
    change: async () => {
      const task = await call(ws.editor, 'POST', '/api/v1/tasks', { workspaceId: ws.workspace.id, title: 'Ship it', spaceId: space.id });
      state.task = task.id;
      return {
        actor: ws.editor.id,
        type: 'task.created',
        subject: ['task', task.id],
        spaceId: space.id,
        pageId: null,
        data: { title: 'Ship it', status: 'todo', assigneeId: null },
      };
    },
  },
  {
    name: 'updating a task',
    change: async () => {
      await call(ws.editor, 'PUT', `/api/v1/tasks/${state.task}`, { title: 'Ship it now', priority: 'high' });
      return {
        actor: ws.editor.id,
        type: 'task.updated',
        subject: ['task', state.task!],
        spaceId: space.id,
        pageId: null,
        data: { title: 'Ship it now', changed: ['title', 'priority'] },
      };
    },
  },
  {
    name: 'assigning a task',
    change: async () => {
      await call(ws.editor, 'POST', `/api/v1/tasks/${state.task}/assign`, { workspaceId: ws.workspace.id, assigneeId: ws.viewer.id });
      return {
        actor: ws.editor.id,
        type: 'task.assigned',
        subject: ['task', state.task!],
        spaceId: space.id,
        pageId: null,
        data: { assigneeId: ws.viewer.id, from: null },
      };
    },
  },
  {
    name: "changing a task's status",
    change: async () => {
      await call(ws.editor, 'PUT', `/api/v1/tasks/${state.task}`, { status: 'in_progress' });
      return {
        actor: ws.editor.id,
        type: 'task.status_changed',
        subject: ['task', state.task!],
        spaceId: space.id,
        pageId: null,
        data: { from: 'todo', to: 'in_progress' },
      };
    },
  },
  {
    name: "a goal's progress (a done task linked)",
    change: async () => {
      const goal = await call(ws.editor, 'POST', `/api/workspaces/${ws.workspace.id}/goals`, { title: 'Launch', horizon: 'short' });
      const done = await call(ws.editor, 'POST', '/api/v1/tasks', { workspaceId: ws.workspace.id, title: 'Done already', status: 'done' });
      const events = await eventsOf(t, () => call(ws.editor, 'POST', `/api/workspaces/${ws.workspace.id}/goals/${goal.id}/tasks`, { taskId: done.id }));
      state.goal = goal.id;
      state.goalEvents = JSON.stringify(events.events.map((e) => e.type));
      return {
        actor: ws.editor.id,
        type: 'goal.progress_changed',
        subject: ['goal', goal.id],
        spaceId: null,
        pageId: null,
        data: { title: 'Launch', from: 0, to: 100 },
      };
    },
  },
  {
    name: 'adding a member (who accepts)',
    change: async () => {
      // Adding an account invites it; the member joins when they accept.
      const invited = await call(ws.admin, 'POST', `/api/v1/workspaces/${ws.workspace.id}/members`, { userId: newcomer.id, role: 'viewer' });
      await call(newcomer, 'POST', `/api/v1/users/me/invitations/${invited.invitation.id}/accept`);
      return {
        actor: newcomer.id,
        type: 'member.joined',
        subject: ['member', newcomer.id],
        spaceId: null,
        pageId: null,
        data: { userId: newcomer.id, role: 'viewer', via: 'invitation', invitedBy: ws.admin.id },
      };
    },
  },
  {
    name: 'accepting an invitation',
    change: async () => {
      const { url } = await invite(t, ws.admin, ws.workspace.id, `nia-${Date.now()}@example.com`, 'editor');
      const accepted = await call(null, 'POST', `/api/v1/invitations/${tokenOf(url)}/accept`, { name: 'Nia', password: 'correct-horse' });
      return {
        actor: accepted.user.id,
        type: 'member.joined',
        subject: ['member', accepted.user.id],
        spaceId: null,
        pageId: null,
        data: { userId: accepted.user.id, role: 'editor', via: 'invitation', invitedBy: ws.admin.id },
      };
    },
  },
  {
    name: 'removing a member',
    change: async () => {
      await call(ws.admin, 'DELETE', `/api/v1/workspaces/${ws.workspace.id}/members/${newcomer.id}`);
      return {
        actor: ws.admin.id,
        type: 'member.removed',
        subject: ['member', newcomer.id],
        spaceId: null,
        pageId: null,
        data: { userId: newcomer.id, role: 'viewer', left: false },
      };
    },
  },
  {
    name: 'an export finishing',
    change: async () => {
      const worker = exportWorker(t);
      try {
        const started = await startExport(t, ws.viewer, { workspaceId: ws.workspace.id, spaceId: space.id, format: 'markdown' });
        expect((await waitForExport(t, ws.viewer, started.id)).status).toBe('succeeded');
        return {
          actor: ws.viewer.id,
          type: 'export.finished',
          subject: ['export', started.id],
          spaceId: space.id,
          pageId: null,
          data: { status: 'succeeded', requestedBy: ws.viewer.id },
        };
      } finally {
        await worker.stop();
      }
    },
  },
  {
    name: 'an import finishing',
    change: async () => {
      const worker = importWorker(t);
      try {
        const file = { bytes: Buffer.from('# Notes\n\nImported text.'), filename: 'notes.md' };
        const done = await importFile(t, ws.editor, { workspaceId: ws.workspace.id, spaceId: space.id }, file);
        return {
          actor: ws.editor.id,
          type: 'import.finished',
          subject: ['import', done.id],
          spaceId: space.id,
          pageId: null,
          data: { status: 'succeeded', filename: 'notes.md', pages: 1, requestedBy: ws.editor.id },
        };
      } finally {
        await worker.stop();
      }
    },
  },
  {
    name: 'an import failing for good',
    change: async () => {
      const worker = importWorker(t);
      try {
        const posted = await postImport(
          t,
          ws.editor,
          { workspaceId: ws.workspace.id, spaceId: space.id },
          { bytes: await makeZip({ 'a.md': 'fine', 'b.md': Buffer.from([0xc3, 0x28]) }), filename: 'broken.zip' },
        );
        expect(posted.status, JSON.stringify(posted.body)).toBe(202);
        expect((await waitForImport(t, ws.editor, posted.body.data.id)).status).toBe('failed');
        return {
          actor: ws.editor.id,
          type: 'import.finished',
          subject: ['import', posted.body.data.id],
          spaceId: space.id,
          pageId: null,
          data: { status: 'failed', filename: 'broken.zip' },
        };
      } finally {
        await worker.stop();
      }
    },
  },
  {
    name: 'a research job completing',
    change: async () => {
      const worker = researchWorker(t);
      try {
        const job = await createJob(t, ws.workspace.id, ws.editor, { topic: 'The plan', sources: ['docs'] });
        const done = await waitForJob(t, ws.workspace.id, ws.editor, job.id);
        expect(done.status, JSON.stringify(done)).toBe('completed');
        const page = await t.database.db.selectFrom('pages').select(['id', 'spaceId']).where('id', '=', done.pageId).executeTakeFirstOrThrow();
        return {
          actor: ws.editor.id,
          type: 'research.completed',
          subject: ['research', job.id],
          spaceId: page.spaceId,
          pageId: page.id,
          data: { title: 'The plan', requestedBy: ws.editor.id, pageId: page.id },
        };
      } finally {
        await worker.stop();
      }
    },
  },
];

describe('every change writes exactly one event', () => {
  for (const c of cases)
    it(c.name, async () => {
      let expected: Awaited<ReturnType<Case['change']>> | undefined;
      const { events } = await eventsOf(t, async () => {
        expected = await c.change();
      });
      const mine = events.filter((e) => e.type === expected!.type && e.subjectId === expected!.subject[1]);
      expect(mine, JSON.stringify(events.map((e) => e.type))).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        workspaceId: ws.workspace.id,
        type: expected!.type,
        actorId: expected!.actor,
        subjectType: expected!.subject[0],
        subjectId: expected!.subject[1],
        spaceId: expected!.spaceId,
        pageId: expected!.pageId,
        dispatchedAt: null,
        data: expect.objectContaining(expected!.data),
      });
    });

  it('the goal link wrote only the progress event', () => {
    expect(JSON.parse(state.goalEvents!)).toEqual(['goal.progress_changed']);
  });

  it('completing a linked task writes its status change and the goal progress, once each', async () => {
    const task = await call(ws.editor, 'POST', '/api/v1/tasks', { workspaceId: ws.workspace.id, title: 'Last step' });
    await call(ws.editor, 'POST', `/api/workspaces/${ws.workspace.id}/goals/${state.goal}/tasks`, { taskId: task.id });
    const { events } = await eventsOf(t, () => call(ws.editor, 'POST', `/api/v1/tasks/${task.id}/complete`, { workspaceId: ws.workspace.id }));
    expect(events.map((e) => [e.type, e.subjectId, e.data.from, e.data.to])).toEqual([
      ['task.status_changed', task.id, 'todo', 'done'],
      ['goal.progress_changed', state.goal, 50, 100],
    ]);
  });

  it('a change of nothing writes nothing', async () => {
    const { events } = await eventsOf(t, () => call(ws.editor, 'PUT', `/api/v1/pages/${state.page}`, { title: 'The plan' }));
    expect(events).toEqual([]);
  });
});

describe('a rolled-back change writes no event', () => {
  it('a comment whose insert fails after its event was recorded leaves no event', async () => {
    await sql`alter table comments add constraint no_boom check (text <> 'boom')`.execute(t.database.db);
    try {
      const { events, result } = await eventsOf(t, () =>
        t.request({
          method: 'POST',
          url: '/api/v1/comments',
          token: ws.editor.token,
          body: { workspaceId: ws.workspace.id, pageId: state.page, text: 'boom' },
        }),
      );
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(events).toEqual([]);
    } finally {
      await sql`alter table comments drop constraint no_boom`.execute(t.database.db);
    }
  });

  it('a page update refused inside its transaction (a cycle) leaves no event', async () => {
    const child = await createPage(t, ws.editor, ws.workspace.id, space.id, 'Child', state.page);
    const { events, result } = await eventsOf(t, () =>
      t.request({ method: 'PUT', url: `/api/v1/pages/${state.page}`, token: ws.editor.token, body: { title: 'Renamed', parentId: child.id } }),
    );
    expect(result.status).toBe(422);
    expect(events).toEqual([]);
  });
});
