import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';

/** Ordered migrations; the key order is the run order. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};
