/**
 * Agent-style questions, each with a phrase that only the answering passage (or memory) contains. Most are
 * paraphrases that share few words with the answer; some use the corpus's own words.
 */
export interface Question {
  q: string;
  answer: string;
}

export const QUESTIONS: Question[] = [
  { q: 'How do I undo a bad production release?', answer: 'nw deploy revert' },
  { q: 'Which days do we ship to production?', answer: 'every Tuesday and Thursday' },
  { q: 'How should I roll out a risky change gradually to customers?', answer: 'Flagsmith' },
  { q: 'How long is an on-call shift?', answer: 'one week at a time' },
  { q: 'How fast must I respond to a critical page?', answer: 'acknowledged within 5 minutes' },
  { q: 'Do I get paid extra for being on call?', answer: 'stipend of 300 euros' },
  { q: 'What goes into a postmortem document?', answer: 'timeline, the customer impact' },
  { q: 'Which incidents need a postmortem?', answer: 'blameless postmortem within five working days' },
  { q: 'How many vacation days do I get per year?', answer: '28 days of paid annual leave' },
  { q: 'How far ahead must I ask for time off?', answer: 'at least two weeks in advance' },
  { q: 'I am sick today, what do I need to do?', answer: 'before 10:00' },
  { q: 'What is the daily meal allowance on business trips?', answer: 'up to 60 euros per day' },
  { q: 'Can I fly business class?', answer: 'longer than six hours' },
  { q: 'Is there money for a desk and chair at home?', answer: 'home office budget of 500 euros' },
  { q: 'What should a new hire do on their first day?', answer: 'Collect your laptop from IT' },
  { q: 'How do I set up my local development environment?', answer: 'nw dev bootstrap' },
  { q: 'Where do we store shared passwords?', answer: '1Password company vault' },
  { q: 'I lost my laptop, who do I tell?', answer: 'lost or stolen device' },
  { q: 'How often are production API keys rotated?', answer: 'rotated every 90 days' },
  { q: 'Can we restore the database to yesterday afternoon?', answer: 'any point in the last 14 days' },
  { q: 'How do I remove a column from a table safely?', answer: 'drop old columns two releases later' },
  { q: 'Where should analytics queries run?', answer: 'read replica, never the primary' },
  { q: 'What happens when a client sends too many API requests?', answer: 'HTTP 429' },
  { q: 'How many items does a list endpoint return per page?', answer: '50 items per page' },
  { q: 'How many approvals does a pull request need before merging?', answer: 'one approving review' },
  { q: 'What uptime do we promise enterprise customers?', answer: '99.9 % uptime SLA' },
  { q: 'When is the Berlin office open?', answer: 'open from 07:00 to 21:00' },
  { q: 'When do performance reviews happen?', answer: 'twice a year, in March and September' },
  { q: 'How long are logs kept?', answer: 'kept for 30 days' },
  { q: 'Which currency does Acme want on its invoices?', answer: 'Acme Corp wants invoices in US dollars' },
  { q: 'Who should I talk to before changing the invoice template?', answer: 'Maria Lopez owns the billing service' },
  { q: 'Which database should a new service use?', answer: 'standardised on PostgreSQL 16' },
  { q: 'Why did my test data disappear from staging?', answer: 'staging environment is reset every Sunday' },
  { q: 'How much traffic can one search node handle?', answer: '1,200 requests per second per node' },
  { q: 'Does Globex get single sign-on?', answer: 'single sign-on with Okta' },
  { q: 'What is the office wifi password?', answer: 'Wi-Fi password changes' },
];
