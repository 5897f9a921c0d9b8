import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
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
  /** Login and signup attempts per client address per window, whatever credentials are sent. */
  AUTH_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(30),
  /** Login and signup attempts naming one email per window, from any address. */
  AUTH_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW_S: z.coerce.number().int().positive().default(60),
  /** Active (unrevoked) API keys one user may hold. */
  MAX_API_KEYS_PER_USER: z.coerce.number().int().positive().default(50),
  /** Largest body on routes that carry no content (auth, API keys, users, workspaces and members, spaces, groups). */
  SMALL_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
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
  MAX_PAGE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  MAX_ATTACHMENT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  /** Imports (issue 14): the largest upload, a zip or one file (512 MiB). */
  IMPORT_MAX_BYTES: z.coerce.number().int().positive().default(536_870_912),
  /** Imports: the most bytes a zip may hold once unpacked (all entries together), against zip bombs (2 GiB). */
  IMPORT_MAX_UNPACKED_BYTES: z.coerce.number().int().positive().default(2_147_483_648),
  /** Imports: the most files (and folders) a zip may hold. */
  IMPORT_MAX_ENTRIES: z.coerce.number().int().positive().default(20_000),
  /** Imports: the highest ratio of unpacked to packed size one entry over 1 MiB may have (deflate rarely passes 20 on text). */
  IMPORT_MAX_RATIO: z.coerce.number().positive().default(200),
  /** Imports: the deepest folder nesting a zip may have (path segments). */
  IMPORT_MAX_DEPTH: z.coerce.number().int().positive().default(32),
  /** Days a page stays in the trash before it is purged. */
  TRASH_RETENTION_DAYS: z.coerce.number().positive().default(30),
  /** Bug reports: comma-separated emails of the users who see service-level reports (those with no workspace). */
  BUG_REPORT_ADMINS: z.string().default(''),
  /**
   * Comma-separated emails of the installation's admins: they add any account to a workspace they administer at once
   * (everyone else invites it, and its holder accepts). Counts only for an account whose email kb has verified.
   */
  INSTALL_ADMINS: z.string().default(''),
  /** Invitations one person may make per hour (by email, or by adding an existing account), across workspaces. */
  INVITATIONS_PER_USER_PER_HOUR: z.coerce.number().int().positive().default(20),
  /** Invitations one workspace may send per hour, whoever makes them. */
  INVITATIONS_PER_WORKSPACE_PER_HOUR: z.coerce.number().int().positive().default(100),
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
  /** Link cards: the longest one preview fetch (all redirects included) may take. The address rules are research's. */
  LINK_PREVIEW_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** Link cards: the most of a page that is read for its title and icon (the head is near the top). */
  LINK_PREVIEW_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024),
  /** Link cards: previews one user may ask for in a minute (cached answers count too). */
  LINK_PREVIEW_RATE_LIMIT_MAX: z.coerce.number().int().positive().default(60),
  /** OAuth: how long an access token given to an app lasts (seconds); it is refreshed with its refresh token. */
  OAUTH_ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** OAuth: how long an unused refresh token lasts (seconds); each use replaces it with a new one. */
  OAUTH_REFRESH_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .min(3600)
    .default(30 * 86_400),
  /** OAuth: apps may register themselves (RFC 7591 dynamic registration), for clients without a client metadata document. */
  OAUTH_DYNAMIC_REGISTRATION: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** OAuth: let client metadata documents be fetched from loopback and private addresses (tests, trusted networks); off, such a client_id is refused. */
  OAUTH_CLIENT_ALLOW_PRIVATE_NETWORK: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Webhooks: let endpoints be loopback, private or link-local addresses (tests, trusted networks); off, they are refused at registration and at every delivery. */
  WEBHOOK_ALLOW_PRIVATE_NETWORK: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Webhooks: the longest one delivery (connect, send, answer) may take. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Webhooks: the most of an endpoint's answer that is read (the rest is dropped). */
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /** Research: a clone growing past this many bytes on disk is stopped (the repository source then fails). */
  RESEARCH_CLONE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** Research: comma-separated CIDR ranges (`10.1.0.0/16,127.0.0.1/32`) clones and web fetches may reach although private. */
  RESEARCH_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .refine((v) => v.split(',').every((c) => !c.trim() || ipaddr.isValidCIDR(c.trim())), 'must be comma-separated CIDR ranges'),
  /** The search path for the programs the service runs (git, ssh): read here, so nothing else reads process.env. */
  PATH: z.string().default('/usr/local/bin:/usr/bin:/bin'),
  /** Embeddings: an OpenAI-compatible API base (…/v1; `POST {url}/embeddings`); unset, the offline Universal Sentence Encoder is used. */
  EMBEDDINGS_URL: z.string().url().optional(),
  EMBEDDINGS_MODEL: z.string().max(200).default('text-embedding-3-small'),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * Search: fuse the full-text ranking with the knowledge index's vectors for free-text queries of 2+ words (`auto`:
   * when EMBEDDINGS_URL names an embeddings endpoint; `on`: with the offline encoder too; `off`: never).
   */
  SEARCH_HYBRID: z.enum(['auto', 'on', 'off']).default('auto'),
  /** Search: longest a hybrid search waits for its query's vector before it answers with full text alone. */
  SEARCH_HYBRID_TIMEOUT_MS: z.coerce.number().int().positive().default(1_500),
  /** Knowledge: how often the background job looks for pages whose passages need (re)indexing. */
  KNOWLEDGE_INDEX_EVERY_MS: z.coerce.number().int().positive().default(5_000),
  /** Knowledge: stale pages of the caller's workspace indexed inline by a search before it runs (0: leave it to the job). */
  KNOWLEDGE_CATCHUP_PAGES: z.coerce.number().int().min(0).max(50).default(3),
  /** Knowledge: most pages one run of the background indexer takes on (the next run, KNOWLEDGE_INDEX_EVERY_MS later, does the rest). */
  /** Knowledge: longest a search waits for its catch-up indexing before it answers from what is indexed (the catch-up goes on). */
  KNOWLEDGE_CATCHUP_WAIT_MS: z.coerce.number().int().min(0).default(200),
  KNOWLEDGE_INDEX_MAX_PAGES: z.coerce.number().int().positive().default(100),
  /** Knowledge: milliseconds one run of the background indexer may go on before it leaves the rest to the next run. */
  KNOWLEDGE_INDEX_BUDGET_MS: z.coerce.number().int().positive().default(2_000),
  /** Threads of the CPU pool (embedding, big Markdown conversions) beside the request thread; default: cores − 1, 1 to 4. */
  CPU_WORKERS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(Math.max(1, Math.min(4, availableParallelism() - 1))),
  /** Milliseconds a CPU pool thread stays idle before it exits (and frees the embedding model it holds). */
  CPU_WORKER_IDLE_MS: z.coerce.number().int().min(100).default(30_000),
  /** Nice value of CPU pool threads (Linux, per thread; 0 to 19): higher leaves the cores to requests when they are busy. */
  CPU_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /** The built web app served at `/`; a relative path is taken from the package root (where package.json is), not the cwd. */
  WEB_DIST_DIR: z.string().default('web/dist'),
  /** Co-editing: a live page is stored this long after its last change (its JSON, text and Yjs state)… */
  COLLAB_SAVE_DEBOUNCE_MS: z.coerce.number().int().min(0).default(1_000),
  /** …and at least this often while people keep typing. */
  COLLAB_SAVE_MAX_WAIT_MS: z.coerce.number().int().min(0).default(5_000),
  /** A live edit starts a new history version after this much quiet… */
  COLLAB_VERSION_QUIET_MS: z.coerce.number().int().min(0).default(60_000),
  /** …or once the current version has been edited this long. */
  COLLAB_VERSION_MAX_MS: z.coerce.number().int().min(0).default(600_000),
  /** How often open co-editing connections have their access checked again (removal, a lower role, a trashed page). */
  COLLAB_ACCESS_RECHECK_MS: z.coerce.number().int().min(50).default(5_000),
  /** Most co-editing sockets one client address (as rate limiting sees it, TRUST_PROXY included) may hold open; more are refused 429. */
  COLLAB_MAX_SOCKETS_PER_CLIENT: z.coerce.number().int().positive().default(500),
  /** A co-editing socket that has authenticated no document this long after it opened is closed (4408 `authentication-timeout`). */
  COLLAB_AUTH_TIMEOUT_MS: z.coerce.number().int().min(50).default(10_000),
  /** The address people reach the service at (`https://kb.example.com`), for links in mail and the sign-in redirect; default `http://HOST:PORT`. */
  PUBLIC_URL: z.string().url().optional(),
  /** Mail: an SMTP server (`smtp://user:pass@host:587`, `smtps://…`); unset, nothing is mailed and links are only shown to whoever made them. */
  SMTP_URL: z.string().url().optional(),
  /** Mail: the sender of every message. */
  SMTP_FROM: z.string().default('kb <kb@localhost>'),
  /** Notifications: how often the email digest runs (each person gets at most one mail per run, listing what is new and unread). */
  NOTIFY_DIGEST_MS: z.coerce.number().int().min(1000).default(600_000),
  /** Notifications: how often each live stream also looks for new notifications itself (a fallback for those no instance published). */
  NOTIFY_STREAM_POLL_MS: z.coerce.number().int().min(100).default(5_000),
  /** Single sign-on: an OpenID Connect issuer (discovery at `{issuer}/.well-known/openid-configuration`); unset, SSO is off. */
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** Single sign-on: comma-separated email domains whose first login creates an account; empty: any domain. */
  OIDC_ALLOWED_DOMAINS: z.string().default(''),
  /** Single sign-on: the provider's name on the sign-in button ("Sign in with …"). */
  OIDC_DISPLAY_NAME: z.string().max(60).default('SSO'),
  /** Single sign-on: `true` turns password sign-in and signup off. */
  OIDC_ONLY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Attachment blobs: `disk` (under DATA_DIR/blobs) or `s3` (an S3-compatible object store: AWS S3, MinIO, R2, Ceph). */
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  /** S3: the endpoint (`https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`); unset, AWS's own for S3_REGION. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** S3: `true` addresses the bucket in the path (`endpoint/bucket/key`), as MinIO and most self-hosted stores need. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Readiness: `/api/health/ready` answers from its last result for this many milliseconds (one database ping, Redis
   * PING and blob-store check per interval and instance, however often it is polled); 0 checks on every call.
   */
  HEALTH_READY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Metrics: the bearer token `GET /api/metrics` requires; unset, the route answers 404 (metrics off). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Logs: `json` (one object a line, with the request id) or `pretty` (coloured lines, for development). */
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
  /**
   * Database upkeep: how often the background job looks at kb's tables' counters and analyzes or vacuums those past
   * autovacuum's thresholds (PGlite has no autovacuum; a server may run without it).
   */
  DATABASE_UPKEEP_EVERY_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Backups: a folder the recurring backup job writes archives to; unset, no scheduled backups. */
  BACKUP_DIR: z.string().optional(),
  /** Backups: how often the recurring backup runs. */
  BACKUP_EVERY_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(24 * 3600 * 1000),
  /** Backups: archives kept in BACKUP_DIR (the oldest go first). */
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
});

/** The package root: this file is `src/config.ts` in the source and `dist/config.js` in the build, one level down either way. */
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

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
  config.WEB_DIST_DIR = path.resolve(PACKAGE_ROOT, config.WEB_DIST_DIR);
  config.corsOrigins = (overrides.corsOrigins ?? config.CORS_ORIGINS.split(',')).map((s) => s.trim()).filter(Boolean);
  return config;
}

/** Where people reach the service (no trailing slash): PUBLIC_URL, else this process's own address. */
export function publicUrlOf(config: Config): string {
  const url = config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
  return url.replace(/\/+$/, '');
}
