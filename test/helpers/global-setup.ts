import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite: path of a migrated data-folder tarball. PostgreSQL: name of a migrated template database. */
    dbTemplate: string;
  }
}

/** Migrates once per run; each test file then copies the result (tarball load or CREATE DATABASE … TEMPLATE). */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `kb_tmpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString(), poolSize: 1 });
    await migrateToLatest(database.db);
    await database.close();
    project.provide('dbTemplate', name);
    return async () => {
      const { rows } = await admin.query(`select datname from pg_database where datname like $1`, [`kb_t_${process.pid}_%`]);
      for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'kb-test-'));
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('dbTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
