import { createHash } from 'node:crypto';
import type { BugSeverity, BugSource } from '../../db/tables/bug-reports.js';
import { MAX_TITLE } from './bug-reports.schema.js';

/**
 * Pure rules for auto reports: a title from the error, a severity from the error, the de-duplication fingerprint,
 * and the scrubbing of credentials out of error text.
 */

export interface ErrorFacts {
  source: BugSource;
  errorMessage?: string | null;
  errorCode?: string | null;
  errorStack?: string | null;
  /** HTTP status of the failed request, when known (auto:server, or `context.statusCode` of a client report). */
  statusCode?: number | null;
}

/** Database or service outage: connection-class SQLSTATEs, network failures, exhausted resources. */
const OUTAGE_CODES = /^(SERVICE_UNAVAILABLE|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|ENOSPC|ENOMEM|EMFILE|08\w{3}|53\w{3}|57P0\d)$/i;
const OUTAGE_TEXT =
  /(database|db|postgres\w*|redis|pglite)\b[^\n]{0,40}\b(down|unavailable|unreachable|not answering|closed|terminated|refused)|connection (refused|terminated)|ECONNREFUSED|out of memory|no space left|too many (open files|connections)|service unavailable|PGlite is closed/i;
/** Crashes and programming errors. */
const CRASH_TEXT = /\b(TypeError|ReferenceError|RangeError|SyntaxError|InternalError|AssertionError|crash(ed)?|fatal|panic|segfault|unhandled|uncaught)\b/i;
const MINOR_TEXT = /\b(deprecat\w*|warning)\b/i;

/**
 * critical: a database or service outage (by code or message); high: a 5xx (every auto:server report), an
 * INTERNAL_ERROR, or a crash (TypeError, ReferenceError, "unhandled", "fatal", …); low: a deprecation or warning;
 * medium otherwise.
 */
export function detectSeverity(f: ErrorFacts): BugSeverity {
  const code = f.errorCode ?? '';
  const text = `${f.errorMessage ?? ''}\n${firstLine(f.errorStack ?? '')}`;
  if (OUTAGE_CODES.test(code) || f.statusCode === 503 || OUTAGE_TEXT.test(text)) return 'critical';
  if (f.source === 'auto:server' || (f.statusCode != null && f.statusCode >= 500) || /^(INTERNAL_ERROR|5\d\d)$/i.test(code) || CRASH_TEXT.test(text))
    return 'high';
  if (MINOR_TEXT.test(text)) return 'low';
  return 'medium';
}

const SOURCE_LABEL: Record<BugSource, string> = {
  'auto:server': 'server',
  'auto:client': 'client',
  'auto:agent': 'agent',
  'user:command': 'user',
};

/** "<errorCode>: <first line of the message>", cut to the title limit; without a message, the code or the source. */
export function generateTitle(f: ErrorFacts): string {
  const line = firstLine(f.errorMessage ?? '');
  const code = (f.errorCode ?? '').trim();
  const title = line
    ? code && !line.startsWith(code)
      ? `${code}: ${line}`
      : line
    : code
      ? `${code} error`
      : `Error reported by the ${SOURCE_LABEL[f.source]}`;
  return truncate(title, MAX_TITLE);
}

export function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? ''
  );
}

export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * The de-duplication key of an auto report: the workspace (or none), the source and the message (the title when
 * there is no message). Equal keys ⇔ equal triples.
 */
export function fingerprintOf(workspaceId: string | null, source: BugSource, message: string): string {
  return createHash('sha256')
    .update(JSON.stringify([workspaceId, source, message]))
    .digest('hex');
}

/** Credentials that must never be stored: bearer values, our API keys, JWTs, and password/secret/token assignments. */
const SECRETS: [RegExp, string][] = [
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, 'Bearer [redacted]'],
  [/\bkb_[A-Za-z0-9_-]{8,}/g, 'kb_[redacted]'],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted-jwt]'],
  [/\b(password|passwd|secret|token|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, '$1$2[redacted]'],
  [/(postgres(?:ql)?|redis|https?):\/\/([^:/\s@]+):[^@\s/]+@/gi, '$1://$2:[redacted]@'],
];

export function scrubSecrets(text: string): string;
export function scrubSecrets(text: string | null | undefined): string | null;
export function scrubSecrets(text: string | null | undefined): string | null {
  if (text == null) return null;
  let out = text;
  for (const [re, by] of SECRETS) out = out.replace(re, by);
  return out;
}
