import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.js';
import { Id } from '../../schema.js';
import { type MemberScope, memberScope } from '../workspaces/member-scope.js';
import { truncate } from './bug-reports.classify.js';
import { bugReportsRepo } from './bug-reports.repo.js';
import { MAX_ERROR_MESSAGE, MAX_ERROR_STACK } from './bug-reports.schema.js';
import { type AutoRecord, recordAutoReport } from './bug-reports.service.js';

/**
 * The service reports itself: every request answered with a 5xx because of an error is recorded as an
 * `auto:server` report, after the response (never on the request's path), de-duplicated like any other auto report.
 *
 * Occurrences of one error are coalesced in memory while a write for it is in flight, so a flood of the same error
 * costs one write at a time (adding the occurrences gathered meanwhile), not one per request. What is recorded: the
 * request id, method, route pattern, status, error code, message and stack (credentials scrubbed), the user id and
 * the workspace named by the request when the caller is a member of it, through their key's scope (a report never lands
 * in a workspace its caller merely named, or could not act in; otherwise it is service-level). Never bodies, headers, query strings, tokens or keys.
 */

type Occurrence = Omit<AutoRecord, 'workspaceId'> & { workspaceCandidate: string | null; caller: MemberScope | null };

interface Pending {
  occurrence: Occurrence;
  count: number;
}

/** Distinct errors waiting at once; past it new ones are dropped (and logged) rather than grow memory. */
const MAX_PENDING_KEYS = 1_000;

export class ServerErrorRecorder {
  private readonly pending = new Map<string, Pending>();
  private readonly pumps = new Set<Promise<void>>();
  /** Occurrences seen, database writes made, occurrences dropped (too many distinct errors pending). */
  readonly stats = { occurrences: 0, writes: 0, dropped: 0 };

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(o: Occurrence): void {
    this.stats.occurrences += 1;
    const key = JSON.stringify([o.workspaceCandidate, o.caller?.userId, o.caller?.keyWorkspaceId, o.source, o.errorMessage]);
    const entry = this.pending.get(key);
    if (entry) {
      entry.count += 1;
      entry.occurrence.occurredAt = o.occurredAt;
      return;
    }
    if (this.pending.size >= MAX_PENDING_KEYS) {
      this.stats.dropped += 1;
      this.log.warn({ errorMessage: o.errorMessage }, 'self-capture: too many distinct errors pending; occurrence not recorded');
      return;
    }
    this.pending.set(key, { occurrence: o, count: 1 });
    const pump = this.pump(key).finally(() => this.pumps.delete(pump));
    this.pumps.add(pump);
  }

  /** Resolves when every occurrence seen so far has been written (or failed and been logged). */
  async idle(): Promise<void> {
    while (this.pumps.size) await Promise.allSettled([...this.pumps]);
  }

  private async pump(key: string): Promise<void> {
    // Start after the current tick: occurrences of the same moment join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      const entry = this.pending.get(key);
      if (!entry || entry.count === 0) {
        this.pending.delete(key);
        return;
      }
      const count = entry.count;
      entry.count = 0;
      try {
        this.stats.writes += 1;
        await this.write(entry.occurrence, count);
      } catch (err) {
        this.log.error({ err, occurrences: count }, 'self-capture: could not record a server error');
      }
    }
  }

  private async write(o: Occurrence, count: number) {
    const { workspaceCandidate, caller, ...rest } = o;
    const member = workspaceCandidate && caller && (await bugReportsRepo.isMember(this.db, workspaceCandidate, caller));
    const workspaceId = member ? workspaceCandidate : null;
    await recordAutoReport(this.db, { ...rest, workspaceId }, new Date(), count);
  }
}

/** The workspace a request names (path, query, body field or header), when it is a plausible id; membership is checked later. */
function workspaceCandidate(request: FastifyRequest): string | null {
  const pick = (v: unknown) => (Id.safeParse(v).success ? (v as string) : null);
  const from = (o: unknown) => (o !== null && typeof o === 'object' ? pick((o as Record<string, unknown>).workspaceId) : null);
  return from(request.params) ?? from(request.query) ?? from(request.body) ?? pick(request.headers['x-workspace-id']);
}

export function occurrenceOf(request: FastifyRequest, reply: FastifyReply, err: FastifyError): Occurrence {
  const statusCode = reply.statusCode;
  const code = typeof err.code === 'string' && err.code ? err.code : statusCode === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR';
  return {
    workspaceCandidate: workspaceCandidate(request),
    caller: request.actor ? memberScope(request.actor) : null,
    spaceId: null,
    reporterId: null,
    source: 'auto:server',
    errorMessage: truncate(err.message || err.name || 'Error', MAX_ERROR_MESSAGE),
    errorStack: err.stack ? truncate(err.stack, MAX_ERROR_STACK) : null,
    errorCode: truncate(code, 200),
    context: {
      requestId: String(request.id),
      method: request.method,
      route: request.routeOptions.url ?? null,
      statusCode,
      userId: request.actor?.userId ?? null,
    },
    metadata: null,
    occurredAt: new Date(),
    statusCode,
  };
}

const FAILED = Symbol('bugReports.serverError');
type WithError = FastifyRequest & { [FAILED]?: FastifyError };

/** Hooks on the root instance: remember a request's error, and record it once a 5xx answer has gone out. */
export function registerSelfCapture(app: FastifyInstance, db: Db): ServerErrorRecorder {
  const recorder = new ServerErrorRecorder(db, app.log);
  app.addHook('onError', (request, _reply, error, done) => {
    (request as WithError)[FAILED] = error;
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const err = (request as WithError)[FAILED];
    if (err && reply.statusCode >= 500) {
      try {
        recorder.add(occurrenceOf(request, reply, err));
      } catch (e) {
        request.log.warn({ err: e }, 'self-capture: could not queue a server error');
      }
    }
    done();
  });
  app.addHook('onClose', async () => recorder.idle());
  return recorder;
}
