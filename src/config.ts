import { z } from 'zod';

/** Every setting of the service, with its default. The only reader of process.env. */
const ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  /** Prepare the data statements once per database connection; `false` behind PgBouncer in transaction mode before 1.21. */
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  REDIS_URL: z.string().optional(),
  JWT_SECRET: z.string().min(16).optional(),
  JWT_TTL_S: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  RATE_LIMIT_MAX: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().positive().default(60),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(40 * 1024 * 1024),
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WORKERS: z.coerce.number().int().min(0).default(2),
  /** Largest page content accepted (bytes of its JSON, or of the Markdown sent instead). */
  MAX_PAGE_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  MAX_ATTACHMENT_BYTES: z.coerce.number().int().positive().default(25 * 1024 * 1024),
  /** Days a page stays in the trash before it is purged. */
  TRASH_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** Bug reports: comma-separated emails of the users who see service-level reports (those with no workspace). */
  BUG_REPORT_ADMINS: z.string().default(''),
  /** Research: a SearXNG-compatible search API (`GET <url>/search?q=…&format=json`); unset, the web is not searched. */
  WEB_SEARCH_URL: z.string().url().optional(),
  /** Research: an OpenAI-compatible API base (…/v1) whose chat completions write reports; unset, reports are extractive. */
  LLM_BASE_URL: z.string().url().optional(),
  LLM_MODEL: z.string().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Research: colon-separated directories under which local repositories (paths or file:// URLs) may be read; empty: none. */
  RESEARCH_REPO_ROOTS: z.string().default(''),
  /** Research: let clones and web fetches reach loopback and private addresses (tests, trusted networks). */
  RESEARCH_ALLOW_PRIVATE_NETWORK: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Research: milliseconds in a minute of `timeBudget` (tests shorten it). */
  RESEARCH_BUDGET_MINUTE_MS: z.coerce.number().int().positive().default(60_000),
  RESEARCH_FETCH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  RESEARCH_FETCH_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  RESEARCH_GIT_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Embeddings: an OpenAI-compatible API base (…/v1; `POST {url}/embeddings`); unset, the offline Universal Sentence Encoder is used. */
  EMBEDDINGS_URL: z.string().url().optional(),
  EMBEDDINGS_MODEL: z.string().max(200).default('text-embedding-3-small'),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Knowledge: how often the background job looks for pages whose passages need (re)indexing. */
  KNOWLEDGE_INDEX_EVERY_MS: z.coerce.number().int().positive().default(5_000),
  /** Knowledge: stale pages of the caller's workspace indexed inline by a search before it runs (0: leave it to the job). */
  KNOWLEDGE_CATCHUP_PAGES: z.coerce.number().int().min(0).max(50).default(3),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** Origins allowed by CORS, parsed from CORS_ORIGINS (comma-separated; `*` for any). */
  corsOrigins: string[];
};

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = { ...parsed.data, ...overrides } as Config;
  config.corsOrigins = (overrides.corsOrigins ?? config.CORS_ORIGINS.split(',')).map((s) => s.trim()).filter(Boolean);
  return config;
}
