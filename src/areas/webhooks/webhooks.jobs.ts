import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';
import type { ClaimedJob } from '../../jobs/queue.js';
import type { AreaJobs } from '../../jobs/registry.js';
import type { JobContext } from '../../jobs/worker.js';
import { sendDelivery, webhookAddressRule } from './webhooks.deliver.js';
import { DELIVERY_JOB_KIND, webhooksRepo } from './webhooks.repo.js';
import { decryptSecret, maskSecrets } from './webhooks.secrets.js';

export const SWEEP_JOB_KIND = 'webhooks.sweep';

/** Waits before each retry: about a day from the first attempt to the eighth and last. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose deliveries failed for good this many times in a row (each after all its attempts) is disabled. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 3;
const EXCERPT_CHARS = 1024;

/**
 * One attempt of one delivery. The job carries the delivery's generation: a redelivery starts a new one, and a job
 * of an older generation does nothing. The outcome is written with the next attempt's job, in one transaction; the job
 * itself always completes (retries are new jobs at their `runAt`, not the queue's own retries).
 */
async function deliverOnce(job: ClaimedJob, jc: JobContext) {
  const deliveryId = String(job.payload.deliveryId ?? '');
  const generation = Number(job.payload.generation ?? 0);
  const row = await webhooksRepo.findForSend(jc.db, deliveryId);
  if (!row || row.generation !== generation || (row.status !== 'pending' && row.status !== 'retrying')) return { skipped: row ? 'stale' : 'deleted' };
  const at = { id: row.id, workspaceId: row.workspaceId, generation };
  if (!row.enabled) {
    await webhooksRepo.abandon(jc.db, at, 'the webhook is disabled', new Date());
    return { skipped: 'disabled' };
  }
  const { config } = jc.env;
  const secret = decryptSecret(jc.env, row.webhookId, row.secretEncrypted);
  const body = JSON.stringify(row.payload);
  const sentAt = new Date();
  const outcome = await sendDelivery(row.url, webhookAddressRule(config), body, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxBytes: config.WEBHOOK_MAX_RESPONSE_BYTES,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'kb-webhooks',
      'webhook-id': row.eventId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(row.eventId, sentAt, body),
    },
  });
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const attempt = row.attempts + 1;
  const final = !ok && attempt >= MAX_ATTEMPTS;
  const nextAttemptAt = ok || final ? null : new Date(Date.now() + RETRY_DELAYS_MS[attempt - 1]);
  const now = new Date();
  const disabledNow = await jc.db.transaction().execute(async (trx) => {
    const recorded = await webhooksRepo.recordAttempt(trx, at, {
      status: ok ? 'delivered' : final ? 'failed' : 'retrying',
      at: now,
      responseStatus: outcome.status,
      durationMs: outcome.durationMs,
      // Masked with a margin before the cut, so a secret crossing it is masked whole.
      responseExcerpt: outcome.status === null ? null : maskSecrets(outcome.body.slice(0, EXCERPT_CHARS + 128), secret).slice(0, EXCERPT_CHARS),
      lastError: ok ? null : (outcome.error ?? `answered ${outcome.status}`).slice(0, 500),
      nextAttemptAt,
    });
    if (!recorded) return false;
    if (nextAttemptAt) await webhooksRepo.queueDeliveryJob(trx, row.workspaceId, row.id, generation, nextAttemptAt, newId());
    if (ok) await webhooksRepo.resetFailures(trx, row.workspaceId, row.webhookId);
    if (!final) return false;
    const disabled = await webhooksRepo.countFailedDelivery(trx, row.workspaceId, row.webhookId, DISABLE_AFTER_FAILED_DELIVERIES, now);
    if (disabled) await notifyDisabled(trx, jc, row.workspaceId, row.webhookId, row.url);
    return disabled;
  });
  return { deliveryId, attempt, status: outcome.status, delivered: ok, disabled: disabledNow };
}

/**
 * Tells the admins in the transaction that disables the endpoint, so the two are seen together and a crash cannot
 * keep one without the other. Best effort behind a savepoint: the endpoint is disabled either way, and a missing or
 * different notifications table is logged, not fatal.
 */
async function notifyDisabled(trx: Db, jc: JobContext, workspaceId: string, webhookId: string, url: string) {
  await sql`savepoint notify_disabled`.execute(trx);
  try {
    const title = `Webhook to ${new URL(url).host} was disabled after ${DISABLE_AFTER_FAILED_DELIVERIES} failed deliveries`;
    await webhooksRepo.notifyAdminsOfDisabling(trx, workspaceId, webhookId, title, newId());
    await sql`release savepoint notify_disabled`.execute(trx);
  } catch (err) {
    await sql`rollback to savepoint notify_disabled`.execute(trx);
    jc.log.error({ err, webhookId }, 'webhook disabled: admin notification failed');
  }
}

export const webhookJobs: AreaJobs = {
  handlers: {
    [DELIVERY_JOB_KIND]: deliverOnce,
    [SWEEP_JOB_KIND]: async (_job, jc) => ({ requeued: await webhooksRepo.requeueStranded(jc.db, 5 * 60_000) }),
  },
  recurring: [{ kind: SWEEP_JOB_KIND, everyMs: 60_000 }],
};
