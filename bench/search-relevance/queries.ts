/**
 * Judged queries. Grades: 3 answers the query, 2 is about the same thing, 1 is related and useful.
 * Everything else counts as 0. Judged by reading the documents, not by looking at any ranking.
 */
export type Category = 'question' | 'keywords' | 'prefix' | 'phrase' | 'exclusion';

export interface JudgedQuery {
  query: string;
  category: Category;
  judgments: Record<string, 1 | 2 | 3>;
}

export const QUERIES: JudgedQuery[] = [
  // Natural-language questions
  {
    query: 'how many vacation days do I get per year?',
    category: 'question',
    judgments: { 'pto-policy': 3, holidays: 1, 't-pto-accrual': 1, 'parental-leave': 1 },
  },
  {
    query: 'what should I do when production is down',
    category: 'question',
    judgments: { 'incident-runbook': 3, severity: 2, rollback: 2, oncall: 1, postmortem: 1 },
  },
  {
    query: 'How do I connect to the VPN from home?',
    category: 'question',
    judgments: { 'vpn-connect': 3, 'vpn-troubleshoot': 2, 't-vpn-client': 1, 'laptop-setup': 1 },
  },
  { query: 'I forgot my password, how can I reset it', category: 'question', judgments: { 'password-reset': 3, '2fa': 1, phishing: 1 } },
  { query: 'who do I ask to get access to the kubernetes cluster', category: 'question', judgments: { 'k8s-access': 3, 't-k8s-upgrade': 1, autoscaling: 1 } },
  { query: 'how do we roll back a bad release', category: 'question', judgments: { rollback: 3, deploy: 2, 'incident-runbook': 1, 'release-process': 1 } },
  { query: 'when are expense reports due', category: 'question', judgments: { expenses: 3, travel: 1, 'remote-work': 1 } },
  { query: 'what happens when a customer asks us to delete their data', category: 'question', judgments: { 'gdpr-deletion': 3, 'gdpr-sar': 1, backups: 1 } },
  { query: 'how long do we keep database backups', category: 'question', judgments: { backups: 3, 't-pitr': 2, 'gdpr-deletion': 1 } },
  { query: 'what goes into a postmortem and when is it due', category: 'question', judgments: { postmortem: 3, 'incident-runbook': 1, severity: 1 } },
  {
    query: 'is there money for a desk and monitor when working from home',
    category: 'question',
    judgments: { 'remote-work': 3, expenses: 1, 'laptop-setup': 1 },
  },
  {
    query: 'what do I need to do in my first week as a new engineer',
    category: 'question',
    judgments: { onboarding: 3, 'laptop-setup': 2, 't-onboarding-buddy': 1, '2fa': 1 },
  },
  { query: 'how are incidents classified by severity', category: 'question', judgments: { severity: 3, 'incident-runbook': 2, postmortem: 1 } },
  { query: 'what should I do with a suspicious email asking me to log in', category: 'question', judgments: { phishing: 3, 'password-reset': 1, secrets: 1 } },
  { query: 'where do services get their API keys from', category: 'question', judgments: { secrets: 3, 'rate-limits': 1 } },
  { query: 'how many requests per minute can an API client make', category: 'question', judgments: { 'rate-limits': 3, 't-retry-after': 2 } },
  { query: 'why does my vpn keep dropping in hotels', category: 'question', judgments: { 'vpn-troubleshoot': 3, 't-vpn-client': 2, 'vpn-connect': 1 } },
  { query: 'how much parental leave do fathers get', category: 'question', judgments: { 'parental-leave': 3, 'pto-policy': 1 } },

  // Keyword queries
  { query: 'vpn disconnects', category: 'keywords', judgments: { 'vpn-troubleshoot': 3, 't-vpn-client': 2, 'vpn-connect': 1 } },
  { query: 'stale feature flags', category: 'keywords', judgments: { 't-stale-flags': 3, 'feature-flags': 3, 'launch-checklist': 1 } },
  { query: 'rate limit 429 retry', category: 'keywords', judgments: { 'rate-limits': 3, 't-retry-after': 3 } },
  { query: 'interview feedback', category: 'keywords', judgments: { 'interview-feedback': 3, 'interview-loop': 2 } },
  { query: 'alert fatigue pages', category: 'keywords', judgments: { 'alert-fatigue': 3, monitoring: 2, oncall: 1 } },
  { query: 'redis cache invalidation', category: 'keywords', judgments: { 'redis-cache': 3, 't-redis-invalidate': 3, architecture: 1 } },
  { query: 'semantic versioning breaking change', category: 'keywords', judgments: { 'release-process': 3 } },
  { query: 'annual plan proration', category: 'keywords', judgments: { 't-proration': 3, invoicing: 2 } },
  { query: 'color contrast accessibility', category: 'keywords', judgments: { accessibility: 3, 't-contrast': 3, 'design-system': 1 } },
  { query: 'flaky tests quarantine', category: 'keywords', judgments: { 'flaky-tests': 3, 't-flaky-checkout': 3, 'unit-tests': 1 } },
  { query: 'on-call handoff weekend compensation', category: 'keywords', judgments: { oncall: 3, 't-escalation-weekend': 1 } },
  { query: 'canary error rate latency', category: 'keywords', judgments: { 't-canary': 3, deploy: 3, monitoring: 1 } },
  { query: 'subject access request export', category: 'keywords', judgments: { 'gdpr-sar': 3, 't-sar-export': 3, 'gdpr-deletion': 1 } },
  { query: 'meeting room booking', category: 'keywords', judgments: { 'meeting-rooms': 3 } },
  { query: 'pull request review', category: 'keywords', judgments: { 'code-review': 3, 'pr-checklist': 3 } },

  // Prefixes (typed as you go)
  { query: 'knowl', category: 'prefix', judgments: { 'kb-writing': 3, 't-kb-cleanup': 2 } },
  { query: 'onboard', category: 'prefix', judgments: { onboarding: 3, 't-onboarding-buddy': 2, 'laptop-setup': 1 } },
  { query: 'kuberne', category: 'prefix', judgments: { 'k8s-access': 3, 't-k8s-upgrade': 3, architecture: 1, autoscaling: 1 } },
  { query: 'support escalat', category: 'prefix', judgments: { 'support-escalation': 3, 't-escalation-weekend': 1 } },

  // Phrases
  { query: '"point-in-time recovery"', category: 'phrase', judgments: { backups: 3, 't-pitr': 3 } },
  { query: '"paid time off"', category: 'phrase', judgments: { 'pto-policy': 3, 't-pto-accrual': 2, holidays: 1 } },
  { query: '"feature flag" owner', category: 'phrase', judgments: { 'feature-flags': 3, 't-stale-flags': 1 } },

  // Exclusions
  { query: 'deploy -mobile', category: 'exclusion', judgments: { deploy: 3, rollback: 2, 't-canary': 2, 'release-process': 1 } },
  { query: 'backup -laptop', category: 'exclusion', judgments: { backups: 3, 't-pitr': 2 } },
  { query: 'reset -printer', category: 'exclusion', judgments: { 'password-reset': 3 } },
];
