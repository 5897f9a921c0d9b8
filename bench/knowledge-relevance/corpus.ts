/**
 * A small company knowledge base: pages (Markdown, several sections each) and memories. Each question in
 * `questions.ts` names the passage that answers it by a phrase only that passage contains.
 */
export interface CorpusPage {
  title: string;
  markdown: string;
}

export const PAGES: CorpusPage[] = [
  {
    title: 'Deployment handbook',
    markdown: `# Deployment handbook

How code reaches production at Northwind.

## Release train

Production releases leave every Tuesday and Thursday at 11:00 UTC from the main branch. A release is cut automatically once the nightly build is green; anything merged after the cut waits for the next train.

## Rolling back

If a release misbehaves, run \`nw deploy revert --to previous\`. The revert swaps traffic back to the last healthy container image in under two minutes. The on-call engineer then opens an incident ticket and links the failing commit.

## Feature flags

Risky changes ship dark behind a flag in the Flagsmith console. Turn a flag on for internal staff first, then 5 % of tenants, then everyone. Remove stale flags within 30 days of full rollout.
`,
  },
  {
    title: 'On-call guide',
    markdown: `# On-call guide

## Rotation

Each engineer is on call for one week at a time, Monday 09:00 to Monday 09:00 local time. Swaps are arranged in the #oncall channel and recorded in PagerDuty before the shift starts.

## Paging and response times

A P1 page must be acknowledged within 5 minutes and a P2 within 30 minutes. If the primary does not acknowledge, PagerDuty escalates to the secondary and then to the engineering manager.

## Compensation

On-call engineers receive a flat stipend of 300 euros per week, plus time off in lieu for any night-time incident longer than one hour.
`,
  },
  {
    title: 'Incident postmortems',
    markdown: `# Incident postmortems

## When to write one

Every P1 and P2 incident gets a blameless postmortem within five working days. Near misses that could have caused customer impact also qualify.

## Template

A postmortem states the timeline, the customer impact in minutes and tenants affected, the root cause, and action items with owners and due dates. Reviews happen in the Wednesday reliability meeting.
`,
  },
  {
    title: 'Vacation and leave policy',
    markdown: `# Vacation and leave policy

## Annual leave

Full-time employees receive 28 days of paid annual leave per calendar year, plus public holidays of their country of residence. Up to five unused days carry over to the first quarter of the next year.

## Requesting time off

Request leave in the Personio HR portal at least two weeks in advance for absences longer than three days. Your manager approves or declines within two working days.

## Sick leave

If you are ill, tell your manager before 10:00 and record the sick day in Personio. From the fourth consecutive sick day a doctor's note is required.
`,
  },
  {
    title: 'Expenses and travel',
    markdown: `# Expenses and travel

## Claiming expenses

Submit receipts through the Pleo app within 30 days of purchase. Meals while travelling are reimbursed up to 60 euros per day; alcohol is never reimbursed.

## Booking travel

Book trains and flights through TravelPerk. Economy class is the default; business class is allowed only for flights longer than six hours.

## Home office budget

Every employee gets a one-time home office budget of 500 euros for a desk, chair or monitor, and 25 euros a month towards internet costs.
`,
  },
  {
    title: 'Onboarding checklist',
    markdown: `# Onboarding checklist

## First day

Collect your laptop from IT, enable two-factor authentication on Google Workspace and GitHub, and join the #general and #team-intros channels. Your onboarding buddy schedules a welcome lunch.

## First week

Set up the development environment with \`nw dev bootstrap\`, ship a small change to production, and read the architecture overview. Book one-to-ones with each member of your team.

## First month

Shadow an on-call shift, complete the security awareness course in Lessonly, and agree 30-60-90 day goals with your manager.
`,
  },
  {
    title: 'Security policy',
    markdown: `# Security policy

## Passwords and keys

Use the 1Password company vault for every shared credential. API keys for production are rotated every 90 days by the platform team; never paste a secret into Slack or a ticket.

## Laptops

Company laptops must have full-disk encryption enabled and lock the screen after five minutes of inactivity. Report a lost or stolen device to security@northwind.example within one hour.

## Access reviews

Managers review who has access to production systems every quarter. Access not confirmed in the review is revoked automatically.
`,
  },
  {
    title: 'Database operations',
    markdown: `# Database operations

## Backups

The primary PostgreSQL cluster is backed up every night at 02:00 UTC with pgBackRest, and write-ahead logs are archived continuously, so any point in the last 14 days can be restored.

## Schema migrations

Migrations must be backwards compatible with the previous release: add columns as nullable first, backfill in a job, and only drop old columns two releases later.

## Read replicas

Analytics queries run against the read replica, never the primary. Replica lag above 30 seconds raises an alert in Grafana.
`,
  },
  {
    title: 'API guidelines',
    markdown: `# API guidelines

## Versioning

Public endpoints live under /v1. Breaking changes require a new major version and at least six months of overlap before the old one is retired.

## Pagination

Lists are paginated with cursor tokens, 50 items per page by default and at most 200. Never return an unbounded list.

## Rate limits

Each API key may make 600 requests per minute. Clients that exceed the limit receive HTTP 429 with a Retry-After header.
`,
  },
  {
    title: 'Code review',
    markdown: `# Code review

## Expectations

Every pull request needs one approving review from a code owner before it is merged. Reviewers respond within one working day; authors keep pull requests under 400 changed lines where possible.

## Style

Formatting is enforced by Biome in continuous integration, so reviews focus on behaviour, naming and tests rather than whitespace.
`,
  },
  {
    title: 'Customer support escalation',
    markdown: `# Customer support escalation

## Tiers

Tier 1 support answers tickets in Zendesk within four business hours. Anything needing code changes goes to tier 2, the product engineers on the support rotation.

## Enterprise customers

Enterprise customers have a named customer success manager and a 99.9 % uptime SLA; credits are issued automatically when monthly uptime falls below it.
`,
  },
  {
    title: 'Office and facilities',
    markdown: `# Office and facilities

## Berlin office

The Berlin office is open from 07:00 to 21:00 on weekdays. Visitors sign in at the reception tablet and must be accompanied by their host.

## Kitchen

Fresh fruit is delivered on Mondays and Thursdays. Please empty the dishwasher if it has finished.

## Meeting rooms

Book meeting rooms in Google Calendar; rooms not checked in within ten minutes are released automatically.
`,
  },
  {
    title: 'Performance reviews',
    markdown: `# Performance reviews

## Cycle

Performance reviews run twice a year, in March and September. Each review combines a self-assessment, feedback from two peers, and the manager's assessment.

## Promotions

Promotions are decided in a calibration meeting after each review cycle, against the published career ladder. Salary adjustments take effect on the first of the following month.
`,
  },
  {
    title: 'Observability',
    markdown: `# Observability

## Logs

Services log structured JSON to stdout; logs are shipped to Loki and kept for 30 days.

## Metrics and dashboards

Every service exposes Prometheus metrics on /metrics. The golden-signals dashboard in Grafana shows latency, traffic, errors and saturation per service.

## Tracing

Requests carry a W3C traceparent header; traces are sampled at 10 % and stored in Tempo for seven days.
`,
  },
];

export interface CorpusMemory {
  content: string;
  tags: string[];
}

export const MEMORIES: CorpusMemory[] = [
  { content: 'Acme Corp wants invoices in US dollars, sent on the last working day of the month.', tags: ['customer:acme', 'billing'] },
  { content: 'The staging environment is reset every Sunday night; do not keep test data there.', tags: ['staging', 'ops'] },
  { content: 'Decision 2024-03: we standardised on PostgreSQL 16 for all new services; MySQL is no longer approved.', tags: ['decision', 'database'] },
  { content: 'Maria Lopez owns the billing service; ask her before changing invoice templates.', tags: ['ownership', 'billing'] },
  { content: 'The mobile app release needs Apple review, which takes about two days; plan launches accordingly.', tags: ['mobile', 'release'] },
  { content: 'Globex asked for single sign-on with Okta; it is on the roadmap for the third quarter.', tags: ['customer:globex', 'roadmap'] },
  { content: 'The office Wi-Fi password changes on the first of every month and is posted in #berlin-office.', tags: ['office'] },
  { content: 'Load tests showed the search service saturates at about 1,200 requests per second per node.', tags: ['performance', 'search'] },
];
