import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../types.js';

export type ResearchStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type ResearchSource = 'docs' | 'web' | 'repository';
export type ResearchOutputMode = 'longform' | 'brief';

export interface ResearchRepositoryConfig {
  url: string;
  branch: string;
  paths: string[];
  maxFiles: number;
}

/** What one source did: searched (with counts) or skipped, and why. */
export interface ResearchCoverage {
  source: ResearchSource;
  status: 'searched' | 'partial' | 'skipped' | 'failed';
  detail: string;
}

export interface ResearchReportSource {
  type: 'doc' | 'web';
  kind: 'page' | 'task' | 'file' | 'web';
  title: string;
  url: string;
  relevance: number;
}

export interface ResearchReportData {
  summary: string;
  content: string;
  sources: ResearchReportSource[];
  coverage: ResearchCoverage[];
  writer: 'extractive' | 'llm';
  stoppedAtBudget: boolean;
}

type JsonCol<T> = ColumnType<T, string, string>;

export interface ResearchJobTable {
  id: string;
  workspaceId: string;
  createdBy: string;
  topic: string;
  sources: JsonCol<ResearchSource[]>;
  outputMode: ResearchOutputMode;
  /** Minutes: a ceiling, never a wait. */
  timeBudget: number;
  targetSpaceId: string | null;
  repository: ColumnType<ResearchRepositoryConfig | null, string | null, string | null>;
  status: Generated<ResearchStatus>;
  progress: Generated<number>;
  sourcesSearched: Generated<number>;
  documentsFound: Generated<number>;
  /** The queue job that runs it. */
  jobId: string | null;
  startedAt: Date | null;
  completedAt: Date | null;
  cancelledAt: Date | null;
  error: string | null;
  report: ColumnType<ResearchReportData | null, string | null, string | null>;
  pageId: string | null;
  /** Seconds the run took, when it finished. */
  timeSpent: number | null;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

export interface ResearchTables {
  researchJobs: ResearchJobTable;
}
