import pg from 'pg';

/** Statement texts that are named (prepared once per connection), with their names; shared by every connection. */
const names = new Map<string, string>();
const MAX_NAMED = 500;
const MAX_TEXT = 8000;
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/** SQLSTATE 0A000 "cached plan must not change result type": a migration changed a prepared statement's columns. */
function isStalePlan(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '0A000' && /cached plan/i.test(e.message ?? '');
}

/**
 * A pg client that names the data statements (`select|insert|update|delete|with` with parameters, up to 500 distinct
 * texts of ≤ 8,000 characters), so each connection parses and plans them once and then only binds and executes them.
 * Parsing and planning cost more than running a primary-key lookup: about 1.4× the throughput of small queries on a
 * PostgreSQL server and 2× on PGlite (see docs/bench.md).
 *
 * A migration run by another instance may change the columns a prepared `select *` returns; the server then answers
 * "cached plan must not change result type". The statement is then re-prepared under a new name on this connection,
 * and the query is retried when it ran outside a transaction; inside one, the error ends that transaction (the
 * caller's retry succeeds). Behind PgBouncer in transaction mode before 1.21 (no protocol-level prepared
 * statements), set `DATABASE_PREPARED_STATEMENTS=false`.
 */
export class PreparingClient extends pg.Client {
  /** Per connection: statements whose prepared plan went stale, renamed here. */
  private renamed?: Map<string, string>;
  private renames = 0;

  query(config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || !Array.isArray(values) || callback !== undefined) return super.query(config, values, callback);
    const name = this.nameOf(config);
    if (name === undefined) return super.query(config, values, callback);
    return super.query({ name, text: config, values }).catch((err: unknown) => {
      if (!isStalePlan(err)) throw err;
      this.renamed ??= new Map();
      this.renamed.set(config, `${name}_${++this.renames}`);
      if (this.getTransactionStatus() !== 'I') throw err;
      return super.query({ name: this.nameOf(config), text: config, values });
    });
  }

  private nameOf(text: string): string | undefined {
    const renamed = this.renamed?.get(text);
    if (renamed !== undefined) return renamed;
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED && text.length <= MAX_TEXT && DATA_STATEMENT.test(text)) {
      name = `kb_${names.size}`;
      names.set(text, name);
    }
    return name;
  }
}
