import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/compiled.js';
import type { Db } from '../../src/db/index.js';
import { useTestDatabase } from '../helpers/app.js';

const t = useTestDatabase();
beforeAll(async () => {
  await sql`create table probe (id text primary key, name text not null, size int not null)`.execute(t.database.db);
  await sql`insert into probe values ('a', 'Ann', 1), ('b', 'Bob', 2), ('c', 'Cid', 3)`.execute(t.database.db);
});

describe('compiledOnce', () => {
  const bySizeAndName = compiledOnce(
    (_db: Db, minSize: number, name: string) =>
      // The arguments in another order than declared, next to constants of the query.
      sql<{ id: string }>`select id from probe where name <> ${name} and size >= ${minSize} and id <> ${'z'} order by id`,
  );

  it('runs the compiled query again with each call’s arguments, on the database and in a transaction', async () => {
    expect(await bySizeAndName(t.database.db, 2, 'Cid')).toEqual([{ id: 'b' }]);
    expect(await bySizeAndName(t.database.db, 1, 'Bob')).toEqual([{ id: 'a' }, { id: 'c' }]);
    const inTransaction = await t.database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('probe' as never)
        .values({ id: 'd', name: 'Dee', size: 4 } as never)
        .execute();
      return bySizeAndName(trx, 4, 'x');
    });
    expect(inTransaction).toEqual([{ id: 'd' }]);
  });

  it('maps result columns through the CamelCase plugin like any query', async () => {
    const find = compiledOnce((db: Db, id: string) =>
      db
        .selectFrom('probe' as never)
        .select(sql<string>`name`.as('displayName'))
        .where(sql`id`, '=', id),
    );
    expect(await find(t.database.db, 'a')).toEqual([{ displayName: 'Ann' }]);
  });

  it('refuses a query whose argument is not a bound value (folded into the text, or unused)', async () => {
    const raw = compiledOnce((_db: Db, column: string) => sql`select ${sql.raw(column)} from probe`);
    await expect(raw(t.database.db, 'id')).rejects.toThrow(/every argument must be a bound value/);
    const unused = compiledOnce((_db: Db, _id: string) => sql`select id from probe`);
    await expect(unused(t.database.db, 'a')).rejects.toThrow(/unbound: 1/);
  });
});

describe('prepared statements', () => {
  /** Runs `fn` on one connection of the pool, so a statement prepared by one query is the one the next query uses. */
  const onOneConnection = <T>(fn: (db: Db) => Promise<T>) => t.database.db.connection().execute(fn);
  const preparedCount = (db: Db, text: string) =>
    sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement = ${text}`.execute(db).then((r) => r.rows[0].n);

  it('prepares data statements once per connection', async () => {
    await onOneConnection(async (db) => {
      const q = sql`select * from probe where id = ${'a'}`;
      await q.execute(db);
      await q.execute(db);
      expect(await preparedCount(db, q.compile(db).sql)).toBe(1);
    });
  });

  it('re-prepares a statement whose result columns a migration changed, retrying it outside a transaction', async () => {
    await sql`create table drift (id text primary key)`.execute(t.database.db);
    await sql`insert into drift values ('x')`.execute(t.database.db);
    await onOneConnection(async (db) => {
      const q = sql<Record<string, unknown>>`select * from drift where id = ${'x'}`;
      expect((await q.execute(db)).rows).toEqual([{ id: 'x' }]);
      await sql`alter table drift add column note text default 'added'`.execute(db);
      // Without the retry the server answers "cached plan must not change result type".
      expect((await q.execute(db)).rows).toEqual([{ id: 'x', note: 'added' }]);
    });
  });

  it('inside a transaction, fails that transaction once, then works under the new name', async () => {
    await sql`create table drift2 (id text primary key)`.execute(t.database.db);
    await sql`insert into drift2 values ('y')`.execute(t.database.db);
    await onOneConnection(async (db) => {
      const q = sql<Record<string, unknown>>`select * from drift2 where id = ${'y'}`;
      await q.execute(db);
      await sql`alter table drift2 add column size int default 7`.execute(db);
      await sql`begin`.execute(db);
      await expect(q.execute(db)).rejects.toMatchObject({ code: '0A000' });
      await sql`rollback`.execute(db);
      expect((await q.execute(db)).rows).toEqual([{ id: 'y', size: 7 }]);
      await sql`begin`.execute(db);
      expect((await q.execute(db)).rows).toEqual([{ id: 'y', size: 7 }]);
      await sql`commit`.execute(db);
    });
  });
});
