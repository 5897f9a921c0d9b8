/**
 * The service's REST API as the import/export bench uses it, over HTTP as a client sees it: JSON calls, uploads,
 * downloads, the export and import jobs (started, then polled), and the seeding of a space through the same API.
 */
import { type ContentRefs, EMPTY_PAGE, type PlannedAttachment, type PlannedPage, pageContent } from './import-export-content.js';

export interface Api {
  url: string;
  token: string;
  /** A JSON call; throws unless 2xx; the `data` of the answer. */
  call(method: string, path: string, body?: unknown): Promise<any>;
  /** The bytes at `path` (an attachment, an export's zip); throws unless 2xx. */
  download(path: string): Promise<Buffer>;
  /** A multipart POST (`fields` in order, then the file part named `file`); the `data` of the answer. */
  upload(path: string, fields: Record<string, string>, file: { bytes: Buffer; filename: string }): Promise<any>;
}

async function failUnlessOk(res: Response, what: string) {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${(await res.text()).slice(0, 400)}`);
}

export function apiClient(url: string, token = ''): Api {
  const auth = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    url,
    token,
    async call(method, path, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { ...auth(), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      await failUnlessOk(res, `${method} ${path}`);
      return res.status === 204 ? null : (await res.json()).data;
    },
    async download(path) {
      const res = await fetch(`${url}${path}`, { headers: auth() });
      await failUnlessOk(res, `GET ${path}`);
      return Buffer.from(await res.arrayBuffer());
    },
    async upload(path, fields, file) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(file.bytes)]), file.filename);
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: auth(), body: form });
      await failUnlessOk(res, `POST ${path}`);
      return (await res.json()).data;
    },
  };
}

/** Runs `work` over `items`, at most `limit` at a time. */
export async function inParallel<T, R>(items: T[], limit: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls a job's record every `everyMs` until it has succeeded (returned) or failed (thrown). */
export async function pollJob(api: Api, path: string, everyMs = 100, timeoutMs = 30 * 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await api.call('GET', path);
    if (job.status === 'succeeded') return job;
    if (job.status === 'failed') throw new Error(`${path} failed: ${JSON.stringify(job.error)}`);
    if (Date.now() > until) throw new Error(`${path} still ${job.status} after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** A new user with a workspace of their own: the one who seeds, exports and imports. */
export async function signUp(url: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e4)}`;
  const anonymous = apiClient(url);
  const { token } = await anonymous.call('POST', '/api/v1/auth/signup', {
    email: `ie-bench-${stamp}@example.test`,
    password: 'correct horse battery staple',
    name: 'Bench',
  });
  const api = apiClient(url, token);
  const workspace = await api.call('POST', '/api/v1/workspaces', { name: 'Bench', hostname: `iebench${stamp.slice(-8)}` });
  return { api, workspace: workspace as { id: string; hostname: string } };
}

export interface SeededSpace {
  space: { id: string; slug: string };
  /** The pages in plan order. */
  pages: { id: string; slug: string; title: string }[];
  attachments: { id: string; page: number; contentType: string }[];
}

/**
 * Seeds a space through the API: the pages (each parent's children one after another, so they keep the plan's order;
 * different parents in parallel), then the attachments, then every page's content (which names other pages and the
 * attachments, so it comes last).
 */
export async function seedSpace(api: Api, workspace: { id: string; hostname: string }, plan: PlannedPage[], files: PlannedAttachment[]): Promise<SeededSpace> {
  const workspaceId = workspace.id;
  const space = await api.call('POST', '/api/v1/spaces', { workspaceId, name: `Handbook ${plan.length}` });
  const pages: SeededSpace['pages'] = new Array(plan.length);
  for (let depth = 0; plan.some((p) => p.depth === depth); depth++) {
    const families = new Map<number | null, PlannedPage[]>();
    for (const p of plan.filter((q) => q.depth === depth)) families.set(p.parent, [...(families.get(p.parent) ?? []), p]);
    await inParallel([...families.values()], 8, async (children) => {
      for (const p of children) {
        const parentId = p.parent === null ? undefined : pages[p.parent].id;
        const created = await api.call('POST', '/api/v1/pages', { workspaceId, spaceId: space.id, title: p.title, markdown: 'x', parentId });
        pages[p.index] = { id: created.id, slug: created.slug, title: created.title };
      }
    });
  }
  const attachments = await inParallel(files, 4, async (f) => {
    const created = await api.call('POST', '/api/v1/attachments', {
      workspaceId,
      pageId: pages[f.page].id,
      filename: f.filename,
      contentType: f.contentType,
      data: f.bytes.toString('base64'),
    });
    return { id: created.id as string, page: f.page, contentType: f.contentType };
  });
  const download = (id: string) => `/api/v1/attachments/${id}/download`;
  const images = attachments.filter((a) => a.contentType === 'image/png');
  const appLink = (p: { id: string; slug: string }) => `/w/${workspace.hostname}/s/${space.slug}/p/${p.slug}-${p.id}`;
  await inParallel(plan, 8, async (p, n) => {
    const own = attachments.filter((a) => a.page === n);
    // A page without an image of its own shows the last one uploaded to an earlier page (a file of another page).
    const image = own.find((a) => a.contentType === 'image/png') ?? images.filter((a) => a.page < n).at(-1) ?? images[0];
    const mentioned = pages[(n + 37) % plan.length];
    const refs: ContentRefs = {
      mention: { id: mentioned.id, label: mentioned.title },
      appLink: appLink(pages[(n + 101) % plan.length]),
      apiLink: n % 10 === 0 ? `/api/v1/pages/${pages[(n + 3) % plan.length].id}` : null,
      image: download(image.id),
      file: own.find((a) => a.contentType !== 'image/png') ? download(own.find((a) => a.contentType !== 'image/png')!.id) : null,
    };
    // Every 50th page (the last of each subtree) is left empty, as a page that only holds children often is.
    const content = n % 50 === 49 ? EMPTY_PAGE : pageContent(p.title, n, refs);
    await api.call('PUT', `/api/v1/pages/${pages[n].id}`, { content });
  });
  return { space, pages, attachments };
}
