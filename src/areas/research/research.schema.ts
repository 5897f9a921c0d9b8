import { z } from 'zod';
import { Id } from '../../schema.js';
import { BUDGET } from './research.limits.js';

export const RESEARCH_SOURCES = ['docs', 'web', 'repository'] as const;
export const RESEARCH_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const OUTPUT_MODES = ['longform', 'brief'] as const;

const Glob = z.string().trim().min(1).max(300);

export const RepositoryConfig = z
  .object({
    url: z.string().trim().min(1).max(2048).describe('https://…, ssh://… or git@host:path; a local path or file:// URL only under RESEARCH_REPO_ROOTS'),
    branch: z
      .string()
      .trim()
      .min(1)
      .max(250)
      .regex(/^(?!-)[A-Za-z0-9._/+-]+$/, 'must be a branch or tag name')
      .refine((b) => !b.includes('..') && !b.endsWith('/') && !b.endsWith('.lock'), 'must be a branch or tag name')
      .default('main')
      .describe('Branch or tag to read (default main)'),
    paths: z.array(Glob).max(50).optional().describe('Globs of the files to read (`src/**/*.ts`, `docs/**`); default every file'),
    maxFiles: z.number().int().min(1).max(1000).default(100).describe('At most this many text files are read (default 100)'),
  })
  .describe('The repository to research (needed when `sources` includes `repository`)');

export const ResearchCreateBody = z.object({
  topic: z.string().trim().min(1).max(500).describe('What to research'),
  sources: z
    .array(z.enum(RESEARCH_SOURCES))
    .min(1)
    .max(3)
    .optional()
    .describe(
      'Where to look: docs (pages and tasks), web, repository; default all three. One that cannot be used (no `repository`, no web search service) is reported as skipped',
    ),
  outputMode: z.enum(OUTPUT_MODES).default('longform').describe('`brief`: a summary and key findings; `longform` adds sections by theme'),
  timeBudget: z
    .number()
    .min(BUDGET.minMinutes, `must be at least ${BUDGET.minMinutes} minutes`)
    .max(BUDGET.maxMinutes, `must be at most ${BUDGET.maxMinutes} minutes`)
    .default(BUDGET.defaultMinutes)
    .describe(`Minutes: a ceiling, never a wait (default ${BUDGET.defaultMinutes}, minimum ${BUDGET.minMinutes})`),
  targetSpaceId: Id.optional().describe(
    'Space the report page is saved in; the job is visible to its readers and quotes only what they can all read (default: the creator’s private space "Research (<name>)", made on first use)',
  ),
  repository: RepositoryConfig.optional(),
});

export const ResearchParams = z.object({ workspaceId: Id, jobId: Id });

export const ResearchListQuery = z.object({
  status: z.enum(RESEARCH_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const ResearchJob = z.object({
  id: z.string(),
  workspaceId: z.string(),
  topic: z.string(),
  status: z.enum(RESEARCH_STATUSES),
  sources: z.array(z.enum(RESEARCH_SOURCES)),
  outputMode: z.enum(OUTPUT_MODES),
  timeBudget: z.number().describe('Minutes'),
  targetSpaceId: z.string().nullable(),
  repository: z.object({ url: z.string(), branch: z.string(), paths: z.array(z.string()), maxFiles: z.number() }).nullable(),
  progress: z.number().describe('0–100'),
  sourcesSearched: z.number().describe('Requested sources searched so far'),
  documentsFound: z.number().describe('Pages, tasks, web pages and files found so far'),
  timeElapsed: z.number().describe('Seconds since the job started running (0 while pending)'),
  estimatedTimeRemaining: z.number().describe('Seconds; an estimate from progress, never past the time budget; 0 once finished'),
  error: z.string().nullable(),
  pageId: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});

export const ResearchListItem = z.object({
  id: z.string(),
  topic: z.string(),
  status: z.enum(RESEARCH_STATUSES),
  progress: z.number(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

export const ResearchList = z.object({ jobs: z.array(ResearchListItem), total: z.number(), limit: z.number(), offset: z.number() });

export const ResearchReport = z.object({
  id: z.string(),
  topic: z.string(),
  summary: z.string(),
  content: z.string().describe('Markdown with numbered citations [n] and a Sources section'),
  sources: z.array(
    z.object({
      type: z.enum(['doc', 'web']),
      kind: z.enum(['page', 'task', 'file', 'web']).describe('What the source is: a page, a task, a repository file or a web page'),
      title: z.string(),
      url: z.string().describe('A page’s or task’s API path, a repository file (`<repository url>#<path>`), or a web address'),
      relevance: z.number().describe('0..1'),
    }),
  ),
  coverage: z.array(z.object({ source: z.enum(RESEARCH_SOURCES), status: z.enum(['searched', 'partial', 'skipped', 'failed']), detail: z.string() })),
  writer: z.enum(['extractive', 'llm']),
  pageId: z.string().nullable(),
  timeSpent: z.number().describe('Seconds'),
  completedAt: z.string(),
});

export const ResearchCancelResult = z.object({
  id: z.string(),
  status: z.literal('cancelled'),
  partialResults: z.boolean().describe('Whether anything had been gathered before the job stopped'),
});
