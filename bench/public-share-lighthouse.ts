/**
 * Lighthouse (mobile, default throttling) on a public share page, against one or more running servers:
 *   npx tsx bench/public-share-lighthouse.ts http://127.0.0.1:3101 [http://127.0.0.1:3102 …]
 * Each server gets the same page (about 600 words: headings, lists, a code block, a table, an image), published
 * through the API; Lighthouse runs 3 times per server (`npx lighthouse`, CHROME_PATH or /usr/bin/chromium) and the
 * median of each category is printed, with the page weight (bytes transferred). Run it on demand, never in tests.
 */
import { lighthouse, medianFigures } from './lib/lighthouse.js';

const RUNS = Number(process.env.RUNS ?? 3);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
const SENTENCE = 'Our team writes down how we work so that a newcomer can find the answer without asking, and so that we can change our minds in the open. ';

async function call(base: string, method: string, path: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function seed(base: string): Promise<string> {
  const n = Date.now().toString(36);
  const who = { name: `Bench ${n}`, email: `bench-${n}@example.test`, password: 'correct horse battery staple' };
  const { token } = await call(base, 'POST', '/api/v1/auth/signup', null, who);
  const ws = await call(base, 'POST', '/api/v1/workspaces', token, { name: 'Bench team', hostname: `bench-${n}` });
  await call(base, 'PUT', `/api/v1/workspaces/${ws.id}`, token, { settings: { allowPublicPages: true } });
  const space = await call(base, 'POST', '/api/v1/spaces', token, { workspaceId: ws.id, name: 'Handbook' });
  const page = await call(base, 'POST', '/api/v1/pages', token, { workspaceId: ws.id, spaceId: space.id, title: 'How we work', markdown: 'x' });
  const picture = await call(base, 'POST', '/api/v1/attachments', token, {
    workspaceId: ws.id,
    pageId: page.id,
    filename: 'dot.png',
    contentType: 'image/png',
    data: PNG.toString('base64'),
  });
  const sections = ['Writing things down', 'Meetings', 'Decisions', 'On call'].map(
    (h) => `## ${h}\n\n${SENTENCE.repeat(5)}\n\n- ${SENTENCE}\n- ${SENTENCE}\n\n${SENTENCE.repeat(4)}\n`,
  );
  const markdown = `${SENTENCE.repeat(3)}\n\n![A diagram](/api/v1/attachments/${picture.id}/download)\n\n${sections.join('\n')}\n\`\`\`sh\nnpm run onboarding\n\`\`\`\n\n| Day | What |\n|---|---|\n| Monday | Meet the team |\n| Tuesday | First change |\n`;
  await call(base, 'PUT', `/api/v1/pages/${page.id}`, token, { markdown });
  await call(base, 'POST', '/api/v1/pages', token, { workspaceId: ws.id, spaceId: space.id, parentId: page.id, title: 'First week', markdown: SENTENCE });
  const { url } = await call(base, 'POST', `/api/v1/pages/${page.id}/share`, token, { includeSubtree: true });
  return `${base}${new URL(url).pathname}`;
}

for (const base of process.argv.slice(2)) {
  const url = await seed(base);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await lighthouse(url));
  const summary = medianFigures(runs);
  console.log(JSON.stringify({ server: base, url: url.replace(/\/s\/[^/]+/, '/s/<token>'), runs: RUNS, median: summary }));
}
