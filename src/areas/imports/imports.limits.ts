import { AppError } from '../../errors.js';

/** What an upload may hold (settings IMPORT_*), checked before anything is unpacked and again while unpacking. */
export interface ImportLimits {
  maxBytes: number;
  maxUnpackedBytes: number;
  maxEntries: number;
  maxRatio: number;
  maxDepth: number;
}

export function limitsOf(config: {
  IMPORT_MAX_BYTES: number;
  IMPORT_MAX_UNPACKED_BYTES: number;
  IMPORT_MAX_ENTRIES: number;
  IMPORT_MAX_RATIO: number;
  IMPORT_MAX_DEPTH: number;
}): ImportLimits {
  return {
    maxBytes: config.IMPORT_MAX_BYTES,
    maxUnpackedBytes: config.IMPORT_MAX_UNPACKED_BYTES,
    maxEntries: config.IMPORT_MAX_ENTRIES,
    maxRatio: config.IMPORT_MAX_RATIO,
    maxDepth: config.IMPORT_MAX_DEPTH,
  };
}

export type RefusalReason =
  | 'too_large'
  | 'not_a_zip'
  | 'unsafe_path'
  | 'too_many_entries'
  | 'too_large_unpacked'
  | 'compression_ratio'
  | 'too_deep'
  | 'invalid_utf8'
  | 'type_mismatch'
  | 'unsupported_file'
  | 'encrypted'
  | 'corrupt'
  | 'empty';

/** An upload refused for what it is: 422 (413 past the size limit) with the reason and, when one file is at fault, its path. */
export function refused(reason: RefusalReason, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('VALIDATION_ERROR', message, { field: 'file', reason, ...extra }, reason === 'too_large' ? 413 : 422);
}

/** The most bytes one page file or attachment may unpack to while being read. */
export const maxFileBytes = (config: { MAX_PAGE_BYTES: number; MAX_ATTACHMENT_BYTES: number }) => Math.max(config.MAX_PAGE_BYTES, config.MAX_ATTACHMENT_BYTES);
