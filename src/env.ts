import { loadJwtSecret, TokenIssuer } from './areas/auth/tokens.js';
import { createBlobStore } from './blobs/index.js';
import type { Config } from './config.js';
import type { ServiceEnv } from './context.js';

/** The process-wide collaborators that requests and background jobs share. */
export function createServiceEnv(config: Config): ServiceEnv {
  return {
    config,
    tokens: new TokenIssuer(loadJwtSecret(config.JWT_SECRET, config.DATA_DIR), config.JWT_TTL_S),
    blobs: createBlobStore(config),
  };
}
