import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** A blob some row needs: its key, and the size (and SHA-256, when recorded) the bytes must have. */
export interface BlobReference {
  key: string;
  size: number;
  sha256: string | null;
}

/**
 * Every blob key the database refers to, across workspaces (an operator's whole-store task): attachments, the zips of
 * succeeded exports, and the uploads of imports not yet run (finished imports have deleted theirs). A new table that
 * stores blob keys belongs here too, or `kb storage migrate` leaves its blobs behind.
 */
const REFERENCES = sql`
  select blob_key as key, size, sha256 from attachments
  union
  select blob_key as key, size, sha256 from exports where status = 'succeeded' and size is not null
  union
  select blob_key as key, size, null as sha256 from imports where status in ('queued', 'running')`;

export const blobReferencesRepo = {
  async count(db: Db): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(distinct key)::int as n from (${REFERENCES}) r`.execute(db);
    return Number(rows[0]?.n ?? 0);
  },

  /** The next `limit` references in key order after `after` (keyset pages: stable while rows come and go). */
  async page(db: Db, after: string, limit: number): Promise<BlobReference[]> {
    const { rows } = await sql<BlobReference>`
      select key, size::bigint as size, sha256 from (${REFERENCES}) r where key > ${after} order by key limit ${limit}`.execute(db);
    return rows.map((r) => ({ key: r.key, size: Number(r.size), sha256: r.sha256 }));
  },
};
