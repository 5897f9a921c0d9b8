import { loadJwtSecret, TokenIssuer } from './areas/auth/tokens.js';
import { createBlobStore } from './blobs/index.js';
import type { Config } from './config.js';
import type { ServiceEnv } from './context.js';
import { narrowDirSync } from './private-files.js';

/** The process-wide collaborators that requests and background jobs share. */
export function createServiceEnv(config: Config): ServiceEnv {
  const tokens = new TokenIssuer(loadJwtSecret(config.JWT_SECRET, config.DATA_DIR), config.JWT_TTL_S);
  // DATA_DIR holds the JWT secret, the blobs and the embedded database: this user's alone, an older wider one narrowed.
  narrowDirSync(config.DATA_DIR);
  return { config, tokens, blobs: createBlobStore(config) };
}
