/**
 * Knowledge-search relevance: hit@1 and MRR@10 of lexical only, vector only and hybrid retrieval over the corpus
 * in corpus.ts and the questions in questions.ts, through the real HTTP API on a fresh database.
 *   npx tsx bench/knowledge-relevance/run.ts [--fallback] [--verbose]
 * `--fallback` builds the tables without pgvector (real[] and an exact scan), as on a server without the extension.
 * The embedder is the one the settings name (EMBEDDINGS_URL …; by default the offline Universal Sentence Encoder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runIndexer } from '../../src/areas/knowledge/knowledge.indexer.js';
import { vectorStorage } from '../../src/areas/knowledge/knowledge.storage.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, openDatabase } from '../../src/db/index.js';
import { embedderFor } from '../../src/embeddings/index.js';
import { MEMORIES, PAGES } from './corpus.js';
import { QUESTIONS } from './questions.js';

const fallback = process.argv.includes('--fallback');
const verbose = process.argv.includes('--verbose');
const MODES = ['lexical', 'vector', 'hybrid'] as const;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kb-bench-'));
  const config = loadConfig(
    { ...process.env, DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-bench-secret-bench', LOG_LEVEL: 'silent', DATABASE_URL: '' },
    { KNOWLEDGE_CATCHUP_PAGES: 0 },
  );
  const database = await openDatabase({});
  await migrateToLatest(database.db, { vector: !fallback });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const call = async (method: 'GET' | 'POST', url: string, token: string | null, body?: object, query?: Record<string, string>) => {
    const res = await app.inject({ method, url, query, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(body ? { payload: body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body);
  };
  try {
    const signup = await call('POST', '/api/v1/auth/signup', null, { email: 'bench@example.com', password: 'correct-horse', name: 'Bench' });
    const token: string = signup.data.token;
    const ws = (await call('POST', '/api/v1/workspaces', token, { name: 'Northwind', hostname: 'northwind' })).data.id;
    const space = (await call('POST', '/api/v1/spaces', token, { workspaceId: ws, name: 'Handbook' })).data.id;
    for (const p of PAGES) await call('POST', '/api/v1/pages', token, { workspaceId: ws, spaceId: space, title: p.title, markdown: p.markdown });
    for (const m of MEMORIES) await call('POST', '/api/v1/memory', token, { workspaceId: ws, content: m.content, tags: m.tags });
    const embedder = embedderFor(config);
    const started = Date.now();
    const indexed = await runIndexer(database.db, embedder, { ...config, KNOWLEDGE_INDEX_BUDGET_MS: 600_000, KNOWLEDGE_INDEX_MAX_PAGES: 1_000_000 });
    const indexMs = Date.now() - started;

    // Every answer phrase names exactly one passage or memory.
    const passages = await database.db.selectFrom('knowledgePassages').select(['content']).execute();
    const texts = [...passages.map((p) => p.content), ...MEMORIES.map((m) => m.content)];
    for (const q of QUESTIONS) {
      const n = texts.filter((t) => t.includes(q.answer)).length;
      if (n !== 1) throw new Error(`answer phrase "${q.answer}" is in ${n} passages`);
    }

    const results: Record<string, { hit1: number; mrr: number; ms: number }> = {};
    for (const mode of MODES) {
      let hit1 = 0;
      let mrr = 0;
      const t0 = Date.now();
      for (const q of QUESTIONS) {
        const out = await call('GET', '/api/v1/knowledge/search', token, undefined, { workspaceId: ws, query: q.q, limit: '10', mode });
        const list: Array<{ content: string; title: string }> = out.data.results;
        const rank = list.findIndex((r) => r.content.includes(q.answer));
        if (rank === 0) hit1++;
        if (rank >= 0) mrr += 1 / (rank + 1);
        if (verbose && rank !== 0)
          console.log(
            `[${mode}] rank ${rank < 0 ? '-' : rank + 1}: ${q.q}  → top: ${list[0]?.title ?? '(none)'}: ${list[0]?.content.slice(0, 70).replace(/\n/g, ' ')}`,
          );
      }
      results[mode] = { hit1: hit1 / QUESTIONS.length, mrr: mrr / QUESTIONS.length, ms: (Date.now() - t0) / QUESTIONS.length };
    }
    console.log(
      `\nKnowledge relevance: ${QUESTIONS.length} questions, ${PAGES.length} pages (${indexed.passages} passages), ${MEMORIES.length} memories; ` +
        `embedder ${embedder.model}; vectors ${await vectorStorage(database.db)}; indexing ${indexMs} ms\n`,
    );
    console.log('| mode | hit@1 | MRR@10 | ms/query |');
    console.log('|---|---|---|---|');
    for (const mode of MODES) {
      const r = results[mode];
      console.log(`| ${mode} | ${r.hit1.toFixed(3)} | ${r.mrr.toFixed(3)} | ${r.ms.toFixed(1)} |`);
    }
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
