import type { CommentAnchorValue } from '../../db/tables/comments.js';
import type { Db } from '../../db/index.js';

const COLUMNS = [
  'c.id',
  'c.pageId',
  'c.workspaceId',
  'c.parentId',
  'c.text',
  'c.authorId',
  'c.resolvedAt',
  'c.resolvedBy',
  'c.createdAt',
  'c.updatedAt',
  'c.deletedAt',
  'c.anchor',
  'u.name as authorName',
  'u.avatarUrl as authorAvatarUrl',
] as const;

const base = (db: Db) => db.selectFrom('comments as c').leftJoin('users as u', 'u.id', 'c.authorId').select(COLUMNS);

export type CommentRow = Awaited<ReturnType<typeof commentsRepo.find>> & {};

export const commentsRepo = {
  /** Every comment of the page, deleted ones included (the service keeps those that still have replies), oldest first. */
  listForPage(db: Db, workspaceId: string, pageId: string) {
    return base(db).where('c.workspaceId', '=', workspaceId).where('c.pageId', '=', pageId).orderBy('c.createdAt').orderBy('c.id').execute();
  },

  /** By id alone: routes name no workspace, so it comes from the row. */
  find(db: Db, id: string) {
    return base(db).where('c.id', '=', id).executeTakeFirst();
  },

  insert(
    db: Db,
    row: { id: string; workspaceId: string; pageId: string; parentId: string | null; text: string; authorId: string; anchor: CommentAnchorValue | null },
  ) {
    return db
      .insertInto('comments')
      .values({ ...row, anchor: row.anchor && JSON.stringify(row.anchor) })
      .execute();
  },

  /** The reactions to these comments, oldest first. */
  reactionsOf(db: Db, workspaceId: string, commentIds: string[]) {
    if (commentIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('commentReactions')
      .select(['commentId', 'userId', 'emoji'])
      .where('workspaceId', '=', workspaceId)
      .where('commentId', 'in', commentIds)
      .orderBy('createdAt')
      .orderBy('userId')
      .execute();
  },

  async react(db: Db, row: { workspaceId: string; commentId: string; userId: string; emoji: string }, reacted: boolean) {
    if (reacted)
      await db
        .insertInto('commentReactions')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .execute();
    else
      await db.deleteFrom('commentReactions').where('commentId', '=', row.commentId).where('userId', '=', row.userId).where('emoji', '=', row.emoji).execute();
  },

  /** How many different emoji a comment has (a comment takes at most MAX_REACTION_KINDS). */
  async reactionKinds(db: Db, commentId: string): Promise<string[]> {
    const rows = await db.selectFrom('commentReactions').select('emoji').distinct().where('commentId', '=', commentId).execute();
    return rows.map((r) => r.emoji);
  },

  updateText(db: Db, workspaceId: string, id: string, text: string, now: Date) {
    return db.updateTable('comments').set({ text, updatedAt: now }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  setResolved(db: Db, workspaceId: string, id: string, by: string | null, at: Date | null) {
    return db.updateTable('comments').set({ resolvedAt: at, resolvedBy: by }).where('workspaceId', '=', workspaceId).where('id', '=', id).execute();
  },

  /** Keeps the row (its replies keep their thread) but not its text. */
  softDelete(db: Db, workspaceId: string, id: string, by: string, now: Date) {
    return db
      .updateTable('comments')
      .set({ text: '', deletedAt: now, deletedBy: by })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', id)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
  },
};
