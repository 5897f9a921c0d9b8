import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { DocJson } from '../../db/tables/pages.js';

const COLUMNS = [
  't.id',
  't.workspaceId',
  't.spaceId',
  't.title',
  't.icon',
  't.description',
  't.createdBy',
  't.updatedBy',
  't.createdAt',
  't.updatedAt',
] as const;

export interface NewTemplate {
  id: string;
  workspaceId: string;
  spaceId: string | null;
  title: string;
  icon: string | null;
  description: string | null;
  content: DocJson;
  createdBy: string;
}

export interface TemplatePatch {
  title?: string;
  icon?: string | null;
  description?: string | null;
  content?: DocJson;
}

export const templatesRepo = {
  /** Where a template lives, for the access check (any workspace: the id alone names it). */
  findScope(db: Db, templateId: string) {
    return db.selectFrom('templates').select(['id', 'workspaceId', 'spaceId']).where('id', '=', templateId).executeTakeFirst();
  },

  findWithContent(db: Db, workspaceId: string, templateId: string) {
    return db
      .selectFrom('templates as t')
      .select([...COLUMNS, 't.content'])
      .where('t.workspaceId', '=', workspaceId)
      .where('t.id', '=', templateId)
      .executeTakeFirst();
  },

  /**
   * A page of the templates the reader may see (`visible` is a condition on `t.space_id`), by title, and the total.
   * With `spaceId`: that space's templates and the workspace-wide ones.
   */
  async list(db: Db, workspaceId: string, visible: RawBuilder<boolean>, f: { spaceId?: string }, limit: number, offset: number) {
    let rows = db.selectFrom('templates as t').select(COLUMNS).where('t.workspaceId', '=', workspaceId).where(visible);
    let count = db.selectFrom('templates as t').select(sql<number>`count(*)::int`.as('n')).where('t.workspaceId', '=', workspaceId).where(visible);
    if (f.spaceId) {
      const spaceId = f.spaceId;
      rows = rows.where((eb) => eb.or([eb('t.spaceId', 'is', null), eb('t.spaceId', '=', spaceId)]));
      count = count.where((eb) => eb.or([eb('t.spaceId', 'is', null), eb('t.spaceId', '=', spaceId)]));
    }
    const [page, total] = await Promise.all([
      rows.orderBy(sql`lower(t.title)`).orderBy('t.id').limit(limit).offset(offset).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: page, total: total.n };
  },

  insert(db: Db, t: NewTemplate, now: Date) {
    return db
      .insertInto('templates')
      .values({ ...t, content: JSON.stringify(t.content), updatedBy: t.createdBy, createdAt: now, updatedAt: now })
      .execute();
  },

  update(db: Db, workspaceId: string, templateId: string, patch: TemplatePatch, userId: string, now: Date) {
    const { content, ...rest } = patch;
    return db
      .updateTable('templates')
      .set({ ...rest, ...(content !== undefined ? { content: JSON.stringify(content) } : {}), updatedBy: userId, updatedAt: now })
      .where('workspaceId', '=', workspaceId)
      .where('id', '=', templateId)
      .execute();
  },

  delete(db: Db, workspaceId: string, templateId: string) {
    return db.deleteFrom('templates').where('workspaceId', '=', workspaceId).where('id', '=', templateId).execute();
  },
};
