import { importSources } from './sources/index.js';
import type { Converted, PageBody, SourceName } from './sources/source.js';

export interface ConvertInput {
  source: SourceName;
  bodies: PageBody[];
}

/** One result per body: the document, or why it could not be read (the import then fails naming the file). */
export type ConvertOutput = (({ ok: true } & Converted) | { ok: false; message: string })[];

/** Runs the source's `convert` over each body (in the CPU pool's thread for large batches). */
export function convertImportPages(input: ConvertInput): ConvertOutput {
  const source = importSources[input.source];
  if (!source) throw new Error(`unknown import source ${input.source}`);
  return input.bodies.map((body) => {
    try {
      return { ok: true as const, ...source.convert(body) };
    } catch (err) {
      return { ok: false as const, message: err instanceof Error ? err.message : String(err) };
    }
  });
}
