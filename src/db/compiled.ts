import { type CompiledQuery, createQueryId } from 'kysely';
import type { Db } from './index.js';

/** A query builder (`compile()`) or a raw `sql` template (`compile(db)`). */
interface Compilable<O> {
  compile(db: Db): CompiledQuery<O>;
}

interface Template<O> {
  query: CompiledQuery<O>;
  /** For each bound parameter, the argument it takes (-1: a constant of the query). */
  slots: number[];
}

/**
 * A hot query that Kysely builds and compiles once, then runs again with new arguments. Building and compiling a
 * small query (the builder's immutable nodes, the CamelCase transform, the compiler) costs about as much CPU as
 * PGlite spends running a primary-key lookup; for a query on every request's path that is worth keeping.
 *
 * `build` is called once, with placeholders for its arguments, and each argument must end up as a bound value only
 * (never in `sql.raw`/`sql.id`, a `limit` folded into the text, or a branch on its value): compiling checks that
 * every placeholder became a parameter and none leaked into the SQL text. Runs on `db` or on a transaction.
 */
export function compiledOnce<A extends unknown[], O>(build: (db: Db, ...args: A) => Compilable<O>) {
  let template: Template<O> | undefined;
  return async (db: Db, ...args: A): Promise<O[]> => {
    template ??= compileTemplate(db, build);
    const { query, slots } = template;
    const parameters = query.parameters.map((constant, i) => (slots[i] === -1 ? constant : args[slots[i]]));
    const { rows } = await db.executeQuery<O>({ ...query, parameters, queryId: createQueryId() });
    return rows;
  };
}

function compileTemplate<A extends unknown[], O>(db: Db, build: (db: Db, ...args: A) => Compilable<O>): Template<O> {
  const arity = build.length - 1;
  const placeholders = Array.from({ length: arity }, (_, i) => `\u0000kb-argument-${i}\u0000`);
  const query = build(db, ...(placeholders as A)).compile(db);
  const slots = query.parameters.map((p) => (typeof p === 'string' ? placeholders.indexOf(p) : -1));
  const unbound = placeholders.filter((_, i) => !slots.includes(i));
  if (unbound.length || query.sql.includes('\u0000')) {
    throw new Error(`compiledOnce: every argument must be a bound value (unbound: ${unbound.length}) in: ${query.sql}`);
  }
  return { query, slots };
}
