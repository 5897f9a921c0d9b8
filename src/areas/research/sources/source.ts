import type { Config } from '../../../config.js';
import type { ResearchCoverage } from '../../../db/tables/research.js';

/** A document a source found: a page, a task, a repository file or a web page, with its text. */
export interface FoundDocument {
  key: string;
  kind: 'page' | 'task' | 'file' | 'web';
  title: string;
  url: string;
  text: string;
}

/** What every source gets: the topic, the settings, and a signal that aborts at the budget or on cancellation. */
export interface GatherContext {
  topic: string;
  config: Config;
  signal: AbortSignal;
  /** Called as documents are found (for the status view's `documentsFound`). */
  found(count: number): void;
}

export interface SourceOutcome {
  documents: FoundDocument[];
  coverage: ResearchCoverage;
}

/** Why a gather stopped early, for the coverage line. */
export function stopReason(signal: AbortSignal): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason ?? '');
  return reason === 'budget' ? 'stopped at the time budget' : 'stopped: the job was cancelled';
}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);
