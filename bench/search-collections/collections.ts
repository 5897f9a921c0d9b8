/**
 * Parsers for four classic judged test collections of the Glasgow IR group
 * (http://ir.dcs.gla.ac.uk/resources/test_collections/): CACM, Cranfield, CISI and NPL, read from the files of their
 * tarballs under `IR_COLLECTIONS_DIR` (default `.tmp/ir-collections/<name>/`). Each file's sha256 is checked on load.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface CollectionDoc {
  key: string;
  title: string;
  body: string;
}

export interface CollectionQuery {
  id: string;
  text: string;
  /** Judged documents (by key) and their gain (> 0); documents not listed count as 0. */
  judgments: Record<string, number>;
}

export interface Collection {
  name: CollectionName;
  docs: CollectionDoc[];
  /** Only queries with at least one relevant document. */
  queries: CollectionQuery[];
}

export const COLLECTION_NAMES = ['cacm', 'cranfield', 'cisi', 'npl'] as const;
export type CollectionName = (typeof COLLECTION_NAMES)[number];

/** The files each collection is read from, with their sha256 (the copies the figures in docs/search.md were measured on). */
export const FILES: Record<CollectionName, Record<string, string>> = {
  cacm: {
    'cacm.all': '0d0eaa9e54987161482a217dcef670a8032d687b1bbe84ba0a8e310b675bd52f',
    'query.text': '2fe81273fd7db3beccad1090c84630dea561469b7c19ad03e71370c8c7399cc9',
    'qrels.text': 'da4202b0c70cad7d91c9a028eaf8cbd0a4ca981ebdc3955eb75ba7b6de6f185c',
  },
  cranfield: {
    'cran.all.1400': '73d33d7e445b884bc32332034e7bc7d07ad5089d9030ead9f1de3493da21da1d',
    'cran.qry': '99578ceb88941ef89c14faf7c63c23776a376d8fba319b990f01d0c601d8b03f',
    cranqrel: '92e54b58dac0b980152178f350d892fae66c8a239b8a11715b835fb8d2f6bc0e',
  },
  cisi: {
    'CISI.ALL': 'c13934ad921234b571e7b424af3461fe39dccb16757cb21954b3aea5250d072e',
    'CISI.QRY': 'b72de0e0cb8aa5c93ac988e5be0400cc18949d0a94913a248783a37dd97d5470',
    'CISI.REL': 'f7396c92586c61953ccb7ae99ad8d3ac749ac3b989041fc93a9e311568f58997',
  },
  npl: {
    'doc-text': 'a69b907bdbf59e43b8004e521eb3560dbbaa9cd5facfad4b30b0392434ba18e4',
    'query-text': '0f5e9a179334183cc3b04fe24d9bdfc3f656b08330e6798d8df5dc621bf8e6d5',
    'rlv-ass': '1af78732abed49055218c1548c27cfa354c5d02a9b6c9cb854b9d0b74fcce24c',
  },
};

const FETCH_HELP = `Fetch the collections again: download cacm.tar.gz, cran.tar.gz, cisi.tar.gz and npl.tar.gz from
http://ir.dcs.gla.ac.uk/resources/test_collections/ (or take the same files from the GitHub copies listed in
docs/search.md, "Large judged collections") and place the files under .tmp/ir-collections/<name>/
(cacm/, cranfield/, cisi/, npl/), or point IR_COLLECTIONS_DIR at a folder laid out that way.`;

export const collectionsDir = () => path.resolve(process.env.IR_COLLECTIONS_DIR ?? '.tmp/ir-collections');

/** The files of a collection, read and checked against their sha256 (a clear error with the fetch steps otherwise). */
function readFiles(name: CollectionName): Record<string, string> {
  const dir = path.join(collectionsDir(), name);
  const out: Record<string, string> = {};
  const problems: string[] = [];
  for (const [file, sha] of Object.entries(FILES[name])) {
    const p = path.join(dir, file);
    if (!existsSync(p)) {
      problems.push(`missing: ${p}`);
      continue;
    }
    const buf = readFileSync(p);
    const got = createHash('sha256').update(buf).digest('hex');
    if (got !== sha) problems.push(`sha256 mismatch: ${p}\n    expected ${sha}\n    found    ${got}`);
    out[file] = buf.toString('latin1');
  }
  if (problems.length) throw new Error(`collection ${name}:\n  ${problems.join('\n  ')}\n${FETCH_HELP}`);
  return out;
}

/** SMART-format records (`.I n` then `.X` fields, each running to the next field marker). */
function smart(text: string): { id: string; fields: Record<string, string> }[] {
  const records: { id: string; fields: Record<string, string> }[] = [];
  let cur: { id: string; fields: Record<string, string> } | null = null;
  let field: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\.([A-Z])(?:\s+(.*))?$/.exec(line);
    if (m) {
      if (m[1] === 'I') {
        cur = { id: (m[2] ?? '').trim(), fields: {} };
        records.push(cur);
        field = null;
      } else if (cur) {
        field = m[1];
        cur.fields[field] = cur.fields[field] ?? '';
      }
      continue;
    }
    if (cur && field) cur.fields[field] += `${line}\n`;
  }
  return records;
}

const clean = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
/** `1` / `001` / `01` -> `1`. */
const num = (s: string) => String(Number(s));

/** Pairs of query id and document id with a gain, into per-query judgments. */
function judgmentsOf(pairs: [string, string, number][]): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const [q, d, g] of pairs) {
    if (!(g > 0)) continue;
    const j = out.get(q) ?? {};
    j[d] = Math.max(j[d] ?? 0, g);
    out.set(q, j);
  }
  return out;
}

function finish(name: CollectionName, docs: CollectionDoc[], queries: { id: string; text: string }[], judged: Map<string, Record<string, number>>): Collection {
  const keys = new Set(docs.map((d) => d.key));
  const out: CollectionQuery[] = [];
  for (const q of queries) {
    const j = Object.fromEntries(Object.entries(judged.get(q.id) ?? {}).filter(([k]) => keys.has(k)));
    if (q.text && Object.keys(j).length) out.push({ id: q.id, text: q.text, judgments: j });
  }
  return { name, docs, queries: out };
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/** CACM: title `.T`, body `.W` (many documents have none); binary judgments. */
function cacm(): Collection {
  const f = readFiles('cacm');
  const docs = smart(f['cacm.all']).map((r) => ({ key: num(r.id), title: clean(r.fields.T), body: clean(r.fields.W) }));
  const queries = smart(f['query.text']).map((r) => ({ id: num(r.id), text: clean(r.fields.W) }));
  const pairs = lines(f['qrels.text']).map((l) => {
    const [q, d] = l.split(/\s+/);
    return [num(q), num(d), 1] as [string, string, number];
  });
  return finish('cacm', docs, queries, judgmentsOf(pairs));
}

/**
 * Cranfield: title `.T`, body `.W` (which repeats the title). Queries are numbered 1..225 by their order in the file
 * (the `.I` numbers of cran.qry are not the qrels' ids). Grades 1 (most relevant) .. 4 (minimal) get gain 5 - grade;
 * -1 (not relevant) and 5 are left out.
 */
function cranfield(): Collection {
  const f = readFiles('cranfield');
  const docs = smart(f['cran.all.1400']).map((r) => ({ key: num(r.id), title: clean(r.fields.T), body: clean(r.fields.W) }));
  const queries = smart(f['cran.qry']).map((r, i) => ({ id: String(i + 1), text: clean(r.fields.W) }));
  const pairs = lines(f.cranqrel).map((l) => {
    const [q, d, g] = l.split(/\s+/);
    const grade = Number(g);
    return [num(q), num(d), grade >= 1 && grade <= 4 ? 5 - grade : 0] as [string, string, number];
  });
  return finish('cranfield', docs, queries, judgmentsOf(pairs));
}

/** CISI: title `.T`, body `.W`; queries are their `.W` text (else `.T`); binary judgments. */
function cisi(): Collection {
  const f = readFiles('cisi');
  const docs = smart(f['CISI.ALL']).map((r) => ({ key: num(r.id), title: clean(r.fields.T), body: clean(r.fields.W) }));
  const queries = smart(f['CISI.QRY']).map((r) => ({ id: num(r.id), text: clean(r.fields.W) || clean(r.fields.T) }));
  const pairs = lines(f['CISI.REL']).map((l) => {
    const [q, d] = l.split(/\s+/);
    return [num(q), num(d), 1] as [string, string, number];
  });
  return finish('cisi', docs, queries, judgmentsOf(pairs));
}

/** NPL's format: a number line, text lines, a `/` line. */
function slashRecords(text: string): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  let cur: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '/') {
      if (cur.length) out.push({ id: num(cur[0].trim()), text: clean(cur.slice(1).join(' ')) });
      cur = [];
    } else if (line.trim() || cur.length) cur.push(line);
  }
  return out;
}

/**
 * NPL: no titles. Each document gets its number as title (`NPL 123`), so titles carry no signal; the text is the
 * body. Queries are upper case (lower-cased here). Judgments: a query number, then its relevant documents.
 */
function npl(): Collection {
  const f = readFiles('npl');
  const docs = slashRecords(f['doc-text']).map((r) => ({ key: r.id, title: `NPL ${r.id}`, body: r.text }));
  const queries = slashRecords(f['query-text']).map((r) => ({ id: r.id, text: r.text.toLowerCase() }));
  const pairs: [string, string, number][] = [];
  for (const r of slashRecords(f['rlv-ass'])) for (const d of r.text.split(/\s+/).filter(Boolean)) pairs.push([r.id, num(d), 1]);
  return finish('npl', docs, queries, judgmentsOf(pairs));
}

export function loadCollection(name: CollectionName): Collection {
  return { cacm, cranfield, cisi, npl }[name]();
}
