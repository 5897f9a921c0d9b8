import { type CorpusDoc, KEY_DOCS } from './corpus-docs.js';

export type { CorpusDoc };

/** A small seeded generator (mulberry32): the same corpus on every run. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

/**
 * Mentions in passing: sentences that share a topic's words without answering anything about it. They make the
 * filler a realistic source of false matches (a weekly note that says "VPN" is not the VPN guide).
 */
const MENTIONS = [
  'Someone asked about vacation plans for the summer; nothing decided yet.',
  'Reminder that the holiday party is in the big meeting room.',
  'We talked briefly about the expense tool being slow again.',
  'Travel for the conference is still being discussed.',
  'Performance of the dashboard page is a concern for a customer.',
  'The interview schedule for next week is full.',
  'Welcome to our new colleague, onboarding starts Monday.',
  'The VPN was mentioned as a possible cause, but it was not the VPN.',
  'Password fields on the signup form got a new design.',
  'We need access to the analytics cluster for the report.',
  'The deploy of the marketing site went fine.',
  'A customer mentioned the rollback of their own integration.',
  'Release notes for the design refresh are drafted.',
  'The review of the quarterly numbers moved to Thursday.',
  'Tests for the new importer are being written.',
  'The feature behind the beta flag got good feedback.',
  'Sprint goal: finish the importer and the settings page.',
  'No incident this week, quiet on-call.',
  'The postmortem from last month has two open action items.',
  'Monitoring costs went up because of more log volume.',
  'An alert about disk space on the build machine was noisy.',
  'The database migration for the reports table is merged.',
  'Backup of the shared drive folder was moved to the new account.',
  'Cache hit rate looks fine on the marketing site.',
  'Rate of new signups grew by 12 percent.',
  'Support tickets about login went down after the fix.',
  'Invoice template got the new logo.',
  'Legal asked about data in the analytics warehouse.',
  'Launch date of the mobile redesign is not fixed.',
  'The design team shared new illustrations.',
  'Accessibility came up in the customer call.',
  'The knowledge base has a new section for sales.',
  'The search box on the help center looks broken on mobile.',
  'Kubernetes costs are part of the budget review.',
  'Secrets in the CI configuration were moved, see the platform channel.',
  'Printer on the second floor is working again.',
  'Wifi in the kitchen is weak.',
  'Parental leave cover for the support team is arranged.',
  'Remote day on Friday for the whole team.',
  'Security training is due by the end of the month.',
];

const FILLER = [
  'Attendees: product, design, engineering and support leads.',
  'We reviewed the roadmap and agreed to keep the current priorities.',
  'The customer advisory board meets again in April.',
  'Action items are tracked in the project board.',
  'Numbers are in the shared spreadsheet, updated every Friday.',
  'Next week we focus on the importer and the settings redesign.',
  'The team agreed to try shorter standups for a month.',
  'Hiring: two open roles, one in platform and one in design.',
  'Budget planning for next year starts in September.',
  'We celebrated the anniversary of the product launch.',
  'The new signup flow for customers increased activation.',
  'Churn is stable; most cancellations cite price.',
  'Please comment on the proposal before Wednesday.',
  'The partner integration is blocked on their side.',
  'We will revisit this decision at the end of the quarter.',
  'The old reporting module will be retired next year.',
  'Customer interviews showed confusion around permissions.',
  'The team offsite is planned for late May in Lisbon.',
  'A new dashboard for the sales team is live.',
  'The translation of the help center into German is done.',
  'Good progress on the mobile redesign; demo next Tuesday.',
  'Most of the time went into bug fixes and small improvements.',
  'The weekly newsletter now goes out on Thursdays.',
  'Questions and answers from the all hands are posted in the channel.',
  'We decided to postpone the pricing experiment.',
  'The data team shipped the new funnel report.',
  'Feedback from the beta group was mostly positive.',
  'Open question: who owns the integrations page?',
  'The vendor contract renews in June.',
  'We moved the retro to Friday afternoon.',
];

const TEAMS = ['Platform', 'Payments', 'Growth', 'Mobile', 'Support', 'Design', 'Data', 'People', 'Security', 'Sales'];
const KINDS = ['Weekly sync', 'Retro notes', 'Status update', 'Planning notes', 'Meeting notes', 'Demo day notes'];
const TASK_VERBS = ['Follow up on', 'Draft', 'Review', 'Prepare', 'Update', 'Clean up', 'Investigate', 'Schedule'];
const TASK_OBJECTS = [
  'the quarterly report',
  'the partner integration',
  'the settings page copy',
  'the welcome email series',
  'the customer advisory board agenda',
  'the pricing page',
  'the importer error messages',
  'the sales dashboard',
  'the help center translation',
  'the offsite agenda',
  'the vendor contract',
  'the funnel report',
];

/** The judged corpus: hand-written documents plus `fillerCount` generated notes and tasks. */
export function buildCorpus(fillerCount = 320, seed = 42): CorpusDoc[] {
  const r = prng(seed);
  const docs: CorpusDoc[] = [...KEY_DOCS];
  for (let i = 0; i < fillerCount; i++) {
    const team = r.pick(TEAMS);
    if (i % 4 === 3) {
      const title = `${r.pick(TASK_VERBS)} ${r.pick(TASK_OBJECTS)}`;
      const body = [r.pick(FILLER), r.pick(MENTIONS), r.pick(FILLER)].join(' ');
      docs.push({ key: `filler-${i}`, type: 'task', title, body });
      continue;
    }
    const sentences: string[] = [];
    const n = 4 + r.int(14); // short notes and long ones: length normalisation matters
    for (let s = 0; s < n; s++) sentences.push(r.next() < 0.3 ? r.pick(MENTIONS) : r.pick(FILLER));
    const day = 1 + r.int(28);
    const month = 1 + r.int(12);
    docs.push({
      key: `filler-${i}`,
      type: 'page',
      title: `${team} ${r.pick(KINDS).toLowerCase()} 2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      body: sentences.join(' '),
    });
  }
  return docs;
}
