/**
 * Hand-written team-wiki pages and tasks: the documents the judged queries are about, plus near misses that share
 * their words (a printer "reset", a laptop "backup", a mobile "deploy"). Filler around them comes from `corpus.ts`.
 */
export interface CorpusDoc {
  key: string;
  type: 'page' | 'task';
  title: string;
  body: string;
}

export const KEY_DOCS: CorpusDoc[] = [
  // People and policies
  {
    key: 'pto-policy',
    type: 'page',
    title: 'Vacation and paid time off policy',
    body: 'Full-time employees accrue 25 days of paid time off per calendar year, credited monthly. Up to five unused days carry over into the next year; the rest expire on March 31. Request time off in the HR portal at least two weeks ahead for absences longer than three days, and tell your manager. Sick days are not deducted from your vacation balance. Part-time staff accrue leave pro rata.',
  },
  {
    key: 'holidays',
    type: 'page',
    title: 'Public holidays 2026',
    body: 'The office is closed on these public holidays: New Year, Easter Monday, Labour Day, Ascension, Whit Monday, National Day, Christmas and Boxing Day. If you work on a public holiday during an incident you get a replacement day off. Holidays do not count against your paid time off.',
  },
  {
    key: 'parental-leave',
    type: 'page',
    title: 'Parental leave',
    body: 'Birth parents get 20 weeks of fully paid parental leave and other parents get 12 weeks, usable any time in the first year after the birth or adoption. Tell HR eight weeks ahead. Your benefits and equity vesting continue while you are on leave, and you can return part-time for the first month.',
  },
  {
    key: 'remote-work',
    type: 'page',
    title: 'Remote work and home office stipend',
    body: 'Everyone may work from home up to three days a week; fully remote contracts need director approval. New hires receive a one-time home office stipend of 800 euros for a desk, chair, monitor or headset, claimed through the expense tool with receipts. Internet costs are reimbursed up to 40 euros a month.',
  },
  {
    key: 'expenses',
    type: 'page',
    title: 'Submitting expense reports',
    body: 'Submit expense reports in the finance tool by the 5th of the following month. Attach a photo of every receipt over 25 euros. Meals during business travel are covered up to 60 euros a day. Your manager approves the report, then finance reimburses it with the next salary payment. Late expense reports are paid the month after.',
  },
  {
    key: 'travel',
    type: 'page',
    title: 'Travel booking guidelines',
    body: 'Book flights and hotels through the travel desk at least 14 days before the trip. Economy class for flights under six hours. Hotels up to 150 euros a night, 220 in London, Paris and New York. Trains are preferred for trips under four hours. Keep your boarding passes for the expense report.',
  },
  {
    key: 'perf-review',
    type: 'page',
    title: 'Performance review cycle',
    body: 'Performance reviews happen twice a year, in June and December. You write a self-assessment, pick two peers for feedback, and meet your manager to agree on goals for the next half. Ratings are calibrated across teams before promotions and salary changes are announced in January and July.',
  },
  {
    key: 'interview-loop',
    type: 'page',
    title: 'Interview loop for engineers',
    body: 'Engineering candidates go through a recruiter screen, a 60-minute technical phone interview, and an onsite loop of four interviews: system design, coding, debugging a real service, and a values conversation with the hiring manager. Interviewers submit written feedback within 24 hours, before the debrief, without reading each other.',
  },
  {
    key: 'interview-feedback',
    type: 'page',
    title: 'Writing interview feedback',
    body: 'Good interview feedback gives evidence, not impressions: quote what the candidate said and did, name the signal for each competency, and end with a clear hire or no hire recommendation. Avoid comments about age, accent, appearance or family. Feedback is due within 24 hours of the interview.',
  },
  {
    key: 'onboarding',
    type: 'page',
    title: 'Engineering onboarding checklist',
    body: 'Your first week: get your laptop from IT, enable two-factor authentication, join the team channels, read the architecture overview, and pair with your onboarding buddy on a small bug. By the end of week two you should have shipped a change to production and joined the on-call shadow rotation. Your manager schedules a 30-day check-in.',
  },
  {
    key: 'laptop-setup',
    type: 'page',
    title: 'Laptop setup for developers',
    body: 'Install the developer toolchain with the bootstrap script from the dotfiles repository: it installs Homebrew, Node, Docker and the VPN client. Turn on disk encryption and automatic backups to the company cloud drive before you clone any repository. Ask IT for a second monitor if you need one.',
  },
  {
    key: 'office',
    type: 'page',
    title: 'Office wifi and printers',
    body: 'Connect to the Staff wifi network with your SSO login; guests use the Visitor network with the code at reception. The printers on each floor accept jobs from the print portal. If a printer jams, open tray two and reset it with the button on the back; call facilities if it still shows an error.',
  },
  {
    key: 'meeting-rooms',
    type: 'page',
    title: 'Booking meeting rooms',
    body: 'Reserve meeting rooms in the calendar by adding the room as a guest. Large rooms on the third floor seat twelve people and have video conferencing. Release a booking you no longer need; bookings not checked in within ten minutes are released automatically.',
  },
  {
    key: 'phishing',
    type: 'page',
    title: 'Reporting phishing emails',
    body: 'If an email asks you to log in, pay an invoice or open an unexpected attachment, do not click anything. Use the Report phishing button in the mail client, which sends it to the security team. If you already entered your password, change it immediately and tell security on the incident channel.',
  },

  // Accounts and access
  {
    key: 'password-reset',
    type: 'page',
    title: 'Resetting your SSO password',
    body: 'To reset a forgotten password, open the login page and choose Forgot password; a reset link is sent to your recovery email and expires after 30 minutes. Passwords must have at least 14 characters. If you are locked out after five failed attempts, the IT helpdesk can unlock your account once they verify your identity by video call.',
  },
  {
    key: '2fa',
    type: 'page',
    title: 'Two-factor authentication setup',
    body: 'Two-factor authentication is required for every account. Register an authenticator app or a hardware security key on the account settings page. Store the recovery codes in your password manager. If you lose your phone, the IT helpdesk can disable the old device after verifying your identity.',
  },
  {
    key: 'vpn-connect',
    type: 'page',
    title: 'Connecting to the VPN',
    body: 'Install the WireGuard client from the self-service portal, then import your personal profile from the VPN page of the IT portal. Connect before you reach internal tools such as the admin dashboard or the staging environment. From home, use the split tunnel profile so video calls do not go through the office.',
  },
  {
    key: 'vpn-troubleshoot',
    type: 'page',
    title: 'Troubleshooting VPN disconnects',
    body: 'If the VPN disconnects every few minutes, switch to the TCP profile, disable IPv6 on your home router, and update the client. Hotel and airport networks often block the UDP port; the fallback profile on port 443 works there. Send the client log to the helpdesk if the tunnel still drops.',
  },
  {
    key: 'k8s-access',
    type: 'page',
    title: 'Kubernetes cluster access',
    body: 'Access to the production Kubernetes cluster is granted per team by the platform team. Request it in the access portal; your manager approves. Once approved, run the login command to fetch short-lived credentials for kubectl. Read-only access to staging is given to every engineer automatically.',
  },
  {
    key: 'secrets',
    type: 'page',
    title: 'Storing secrets and API keys',
    body: 'Never commit passwords, tokens or API keys to a repository. Services read their secrets from the vault at start; engineers add and rotate them with the vault command line. A leaked key must be revoked within one hour and the incident reported. The secret scanner blocks pushes that contain credentials.',
  },

  // Engineering process
  {
    key: 'deploy',
    type: 'page',
    title: 'How we deploy to production',
    body: 'Every merge to the main branch builds a container image and deploys it to staging. To release to production, start the deploy pipeline from the release dashboard: it rolls out to a 5 percent canary, watches error rate and latency for fifteen minutes, then continues to all regions. Deploys are frozen on Friday afternoons and during holidays.',
  },
  {
    key: 'rollback',
    type: 'page',
    title: 'Rollback procedure',
    body: 'If a release causes errors, roll back first and investigate later. Open the release dashboard, pick the previous healthy version and press Roll back; the pipeline redeploys it to every region in about six minutes. Database migrations are never rolled back automatically: write a forward fix instead. Announce the rollback in the incident channel.',
  },
  {
    key: 'release-process',
    type: 'page',
    title: 'Release process and semantic versioning',
    body: 'Libraries and the public API follow semantic versioning: a breaking change bumps the major version, a new feature the minor, a fix the patch. Release notes are written from the changelog entries of merged pull requests. Release candidates are tagged on Tuesdays and promoted on Thursdays.',
  },
  {
    key: 'mobile-release',
    type: 'page',
    title: 'Publishing the iOS and Android apps',
    body: 'Mobile releases ship every two weeks. Build the release from the mobile pipeline, upload it to TestFlight and the Play Console internal track, and let QA test for two days. Store review takes one to three days, so submit on Monday. A staged rollout deploys to 10 percent of users first.',
  },
  {
    key: 'code-review',
    type: 'page',
    title: 'Code review guidelines',
    body: 'Every pull request needs one approving review from someone who knows the code. Reviewers answer within one working day. Review for correctness, tests and readability before style; leave style to the formatter. Authors keep pull requests under 400 lines and explain why the change is needed in the description.',
  },
  {
    key: 'pr-checklist',
    type: 'page',
    title: 'Pull request checklist',
    body: 'Before requesting review: tests pass locally, new code has tests, the changelog entry is written, migrations are backwards compatible, feature work is behind a flag, and screenshots are attached for interface changes. Link the task the pull request closes.',
  },
  {
    key: 'unit-tests',
    type: 'page',
    title: 'Writing unit tests',
    body: 'Test behaviour through the public interface, not private helpers. Use the factories to build data and a real database instead of mocks. Each test should fail for one reason. Name tests after the rule they check. Keep the whole suite under five minutes so people run it before pushing.',
  },
  {
    key: 'flaky-tests',
    type: 'page',
    title: 'Flaky test policy',
    body: 'A test that fails intermittently on the main branch is quarantined within a day: mark it as flaky, open a task for the owning team, and fix or delete it within two weeks. Common causes are timing assumptions, shared state between tests and unordered query results.',
  },
  {
    key: 'feature-flags',
    type: 'page',
    title: 'Using feature flags',
    body: 'New features ship dark behind a feature flag and are turned on per workspace from the flag console. Name flags after the feature and set an owner and an expiry date. After a feature reaches every customer, remove the flag and the dead code path within one sprint; stale flags make the code harder to test.',
  },
  {
    key: 'sprint-planning',
    type: 'page',
    title: 'Sprint planning and estimation',
    body: 'Sprints last two weeks and start on Wednesday. In planning the team picks work from the top of the backlog up to its average velocity, estimated in story points with planning poker. Unfinished work goes back to the backlog, not automatically into the next sprint. The retro happens on the last day.',
  },
  {
    key: 'architecture',
    type: 'page',
    title: 'Architecture overview',
    body: 'The product is a set of stateless services behind a load balancer. The API service talks to PostgreSQL for data and Redis for caching and rate limits. Background work goes through a job queue. Search uses PostgreSQL full-text indexes. Every service is deployed to Kubernetes in three regions.',
  },

  // Operations
  {
    key: 'incident-runbook',
    type: 'page',
    title: 'Incident response runbook',
    body: 'When production is down or customers cannot work: page the on-call engineer, open an incident channel, and name an incident commander who coordinates while others debug. Post a status page update within 15 minutes and every 30 minutes after. Mitigate first, for example by rolling back or failing over, then find the root cause.',
  },
  {
    key: 'severity',
    type: 'page',
    title: 'Incident severity levels',
    body: 'SEV1: the service is down or data is at risk for many customers; page everyone needed, any hour. SEV2: a major feature is broken or badly degraded; fix during the day, page at night if customers are affected. SEV3: a minor bug with a workaround; handle in normal work. The incident commander sets and updates the severity.',
  },
  {
    key: 'postmortem',
    type: 'page',
    title: 'Postmortem template',
    body: 'Write a postmortem for every SEV1 and SEV2 within five working days. Sections: summary, customer impact, timeline, root cause, what went well, what went badly, and action items with owners and due dates. Postmortems are blameless: describe what the system allowed, not who made a mistake. Review it in the weekly operations meeting.',
  },
  {
    key: 'oncall',
    type: 'page',
    title: 'On-call rotation and handoff',
    body: 'Each team runs a weekly on-call rotation that hands off on Monday at 10:00. The outgoing engineer writes a handoff note with open alerts, ongoing incidents and risky deploys. On-call engineers respond to pages within 15 minutes and get a compensation day for each weekend on call. Swap shifts in the scheduling tool.',
  },
  {
    key: 'monitoring',
    type: 'page',
    title: 'Monitoring dashboards and alert thresholds',
    body: 'Every service has a dashboard with request rate, error rate, latency percentiles and saturation. Alerts fire on symptoms customers feel: error rate above 2 percent for five minutes, p95 latency above one second, or a full disk within four hours. Each alert links to a runbook that says what to check first.',
  },
  {
    key: 'alert-fatigue',
    type: 'page',
    title: 'Reducing alert fatigue',
    body: 'An alert that nobody acts on is noise. Each quarter we review every alert that fired: delete the ones that never led to action, raise thresholds that page too early, and turn warnings into tickets instead of pages. The goal is fewer than two pages per on-call week outside working hours.',
  },
  {
    key: 'backups',
    type: 'page',
    title: 'PostgreSQL backup and restore',
    body: 'The production PostgreSQL database is backed up with continuous WAL archiving plus a nightly base backup. Backups are kept for 35 days in a separate cloud account and encrypted. Point-in-time recovery can restore the database to any second in that window. A restore of the full database takes about two hours; we test one every month.',
  },
  {
    key: 'redis-cache',
    type: 'page',
    title: 'Redis caching strategy',
    body: 'We cache expensive reads in Redis with a short time to live, usually 60 seconds. Writes invalidate the cache keys they affect by deleting them after the database transaction commits. Never cache data that depends on the user’s permissions under a shared key. Cache misses must always fall back to the database.',
  },
  {
    key: 'autoscaling',
    type: 'page',
    title: 'Scaling services with autoscaling',
    body: 'Services scale horizontally with the horizontal pod autoscaler on CPU and request rate, between a minimum of three replicas and a maximum set per service. Stateful components such as PostgreSQL are scaled vertically during a maintenance window. Load test before raising limits.',
  },
  {
    key: 'rate-limits',
    type: 'page',
    title: 'Public API rate limits',
    body: 'The public API allows 600 requests per minute per API key. Past the limit it answers 429 Too Many Requests with a Retry-After header saying how many seconds to wait. Enterprise plans can ask support for a higher limit. Clients should back off exponentially and never retry in a tight loop.',
  },
  {
    key: 'search-ranking',
    type: 'page',
    title: 'How search ranking works',
    body: 'Search matches any of the words you type, weighs rare words above common ones, ranks matches in the title above matches in the body, and prefers pages that contain more of your words close together. Put a phrase in quotes to require it and put a minus sign before a word to exclude pages containing it.',
  },

  // Customers and business
  {
    key: 'support-escalation',
    type: 'page',
    title: 'Escalating support tickets to engineering',
    body: 'Support escalates a ticket to engineering when a bug is confirmed and blocks a customer, or when data may be wrong. Create an escalation task with the customer, steps to reproduce and the account id. The owning team answers within one business day; urgent escalations page the on-call engineer.',
  },
  {
    key: 'invoicing',
    type: 'page',
    title: 'How customer invoicing works',
    body: 'Customers are invoiced at the start of each billing period by the billing service. Upgrades in the middle of a period are prorated by day. Failed card payments are retried three times over a week before the account is downgraded. Finance handles refunds; support can issue credits up to 100 euros.',
  },
  {
    key: 'gdpr-deletion',
    type: 'page',
    title: 'Data retention and deletion requests',
    body: 'Customer data is kept while the account is active and deleted 90 days after cancellation. When a customer asks us to delete their personal data, support opens a deletion request; engineering erases the data from the database and search index within 30 days, and from backups as they expire. Confirm the deletion to the customer in writing.',
  },
  {
    key: 'gdpr-sar',
    type: 'page',
    title: 'Handling a GDPR subject access request',
    body: 'A subject access request asks which personal data we hold about someone. Verify the requester’s identity, then export their profile, activity log and support tickets with the data export tool. We must answer within one month. The privacy team reviews the export before it is sent.',
  },
  {
    key: 'launch-checklist',
    type: 'page',
    title: 'Product launch checklist',
    body: 'Four weeks before a launch: agree the positioning and pricing with product marketing. Two weeks before: brief support and sales, prepare the help center articles and the announcement email. Launch day: turn on the feature flag, publish the blog post and monitor dashboards and support tickets closely.',
  },
  {
    key: 'design-system',
    type: 'page',
    title: 'Design system: colors and typography',
    body: 'Use the design tokens for colors, spacing and type instead of raw values. The primary palette has five blues and a neutral gray scale. Body text is 16 pixels in the Inter typeface; headings follow a 1.25 modular scale. New components are added to the component library after design review.',
  },
  {
    key: 'accessibility',
    type: 'page',
    title: 'Accessibility checklist',
    body: 'Text needs a contrast ratio of at least 4.5 to 1 against its background. Every interactive element is reachable with the keyboard and has a visible focus ring. Images have alternative text, form fields have labels, and screen readers announce errors. Test with a screen reader before release.',
  },
  {
    key: 'kb-writing',
    type: 'page',
    title: 'Writing good knowledge base articles',
    body: 'A good knowledge base article answers one question. Put the answer in the first paragraph, then the details. Use the question people actually ask as the title. Link related articles instead of copying them, and add an owner so the article is reviewed every six months.',
  },
  {
    key: 'spaces-org',
    type: 'page',
    title: 'How to organize spaces and pages',
    body: 'Create one space per team and one for company-wide handbooks. Keep the page tree shallow: three levels at most. Private spaces are for HR and leadership material; everything else should be public so people can find it. Archive outdated pages instead of leaving them in the tree.',
  },

  // Tasks
  {
    key: 't-pto-accrual',
    type: 'task',
    title: 'Update PTO accrual table for 2026',
    body: 'The HR portal still shows last year’s accrual rate. Update the paid time off table so part-time employees see the right vacation balance.',
  },
  {
    key: 't-canary',
    type: 'task',
    title: 'Automate canary analysis in the deploy pipeline',
    body: 'Today someone watches the canary dashboards by hand for fifteen minutes. Compare error rate and latency of the canary with the baseline automatically and stop the deploy when it regresses.',
  },
  {
    key: 't-escalation-weekend',
    type: 'task',
    title: 'Fix paging escalation for weekends',
    body: 'Pages on Saturday went unanswered because the escalation policy skips the secondary on-call engineer on weekends. Add the secondary to the weekend escalation and test it with a fake alert.',
  },
  {
    key: 't-pitr',
    type: 'task',
    title: 'Test point-in-time recovery of the database',
    body: 'Restore last Tuesday 14:00 from the WAL archive into a scratch instance, check row counts against production, and record how long the restore took in the backup runbook.',
  },
  {
    key: 't-stale-flags',
    type: 'task',
    title: 'Remove stale feature flags',
    body: 'Thirty-one flags are enabled for every workspace and older than three months. Delete them and the code paths they guard, starting with the billing and search flags.',
  },
  {
    key: 't-retry-after',
    type: 'task',
    title: 'Return Retry-After header on 429 responses',
    body: 'The gateway returns 429 when a key exceeds its rate limit but omits the Retry-After header, so SDK clients retry immediately. Add the header with the seconds until the window resets.',
  },
  {
    key: 't-proration',
    type: 'task',
    title: 'Fix proration for annual plans',
    body: 'Upgrading an annual plan in the middle of the billing period charges the full year again. Prorate the upgrade by day like the monthly plans and refund the difference for affected customers.',
  },
  {
    key: 't-vpn-client',
    type: 'task',
    title: 'Roll out the new VPN client version',
    body: 'Version 2.4 of the WireGuard client fixes the disconnects on macOS after sleep. Publish it in the self-service portal and ask the helpdesk to update the VPN troubleshooting page.',
  },
  {
    key: 't-flaky-checkout',
    type: 'task',
    title: 'Quarantine flaky checkout tests',
    body: 'The checkout end-to-end tests fail about one run in ten on the main branch because of a timing assumption. Mark them flaky and fix the wait for the payment iframe.',
  },
  {
    key: 't-contrast',
    type: 'task',
    title: 'Fix color contrast on secondary buttons',
    body: 'The gray secondary buttons have a contrast ratio of 3.1 to 1, below the accessibility minimum. Use the darker gray token and check the focus ring too.',
  },
  {
    key: 't-laptop-backup',
    type: 'task',
    title: 'Enable laptop backups for the design team',
    body: 'Three designers have no automatic backup of their laptops. Turn on the cloud drive backup for the design team and check that large files are included.',
  },
  {
    key: 't-printer',
    type: 'task',
    title: 'Reset the third floor printer',
    body: 'The printer on the third floor shows a paper jam error after every job. Reset it, clear tray two and call the vendor if the error comes back.',
  },
  {
    key: 't-onboarding-buddy',
    type: 'task',
    title: 'Assign onboarding buddies for March hires',
    body: 'Four engineers start in March. Pick an onboarding buddy for each from their team and send them the onboarding checklist a week before the start date.',
  },
  {
    key: 't-kb-cleanup',
    type: 'task',
    title: 'Archive outdated knowledge base pages',
    body: 'About sixty pages in the engineering space were not edited for two years. Ask their owners to update or archive them so search results stay useful.',
  },
  {
    key: 't-redis-invalidate',
    type: 'task',
    title: 'Cache invalidation bug on workspace settings',
    body: 'After changing workspace settings, users see the old values for up to a minute because the Redis key is not deleted after the transaction commits. Invalidate the settings key on write.',
  },
  {
    key: 't-k8s-upgrade',
    type: 'task',
    title: 'Upgrade the Kubernetes clusters to 1.31',
    body: 'Upgrade staging first, run the smoke tests, then upgrade production one region at a time during the maintenance window. Check the autoscaler and ingress versions.',
  },
  {
    key: 't-sar-export',
    type: 'task',
    title: 'Add support tickets to the data export tool',
    body: 'Subject access requests must include support tickets, but the export tool only covers the profile and activity log. Add the tickets to the export.',
  },
];
