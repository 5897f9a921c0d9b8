import { z } from 'zod';

/** Every setting of the service, with its default. The only reader of process.env. */
const ConfigSchema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
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
