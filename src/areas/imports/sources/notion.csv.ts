import { parse } from 'csv-parse/sync';
import type { DocJson } from '../../../editor/index.js';
import type { Converted } from './source.js';

/**
 * A Notion database from the "Markdown & CSV" export: a CSV of its rows (the first column is the row's title, the
 * header names the properties) beside a folder holding a page per row. It becomes a page whose content is that
 * table, each row's title linking to the row's page. The CSV carries no link to the row pages, so `plan`, which
 * knows them, hands `convert` the parsed table with each row's link (see `DatabaseBody`).
 */

export interface DatabaseBody {
  rows: string[][];
  /** Per data row (after the header): the row page's file, as a link relative to the CSV, or null. */
  rowLinks: (string | null)[];
}

/** The rows of a CSV (header first); lenient about ragged rows, as hand-edited exports have them. */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true }) as string[][];
}

type Json = DocJson & Record<string, unknown>;

function cell(type: 'tableHeader' | 'tableCell', text: string, href: string | null): Json {
  const value = text.trim();
  const marks = href ? [{ type: 'link', attrs: { href } }] : undefined;
  const paragraph = value ? { type: 'paragraph', content: [{ type: 'text', text: value, ...(marks ? { marks } : {}) }] } : { type: 'paragraph' };
  return { type, content: [paragraph] } as Json;
}

export function convertNotionDatabase(text: string): Converted {
  const { rows, rowLinks } = JSON.parse(text) as DatabaseBody;
  if (rows.length === 0)
    return {
      doc: { type: 'doc', content: [{ type: 'paragraph' }] } as DocJson,
      warnings: ['the database’s CSV is empty or too large to read here; its table was left out'],
    };
  const width = Math.max(...rows.map((r) => r.length));
  const row = (values: string[], type: 'tableHeader' | 'tableCell', link: string | null) => ({
    type: 'tableRow',
    content: Array.from({ length: width }, (_, i) => cell(type, values[i] ?? '', i === 0 ? link : null)),
  });
  const table = {
    type: 'table',
    content: [row(rows[0], 'tableHeader', null), ...rows.slice(1).map((values, i) => row(values, 'tableCell', rowLinks[i] ?? null))],
  };
  return { doc: { type: 'doc', content: [table] } as DocJson, warnings: [] };
}
