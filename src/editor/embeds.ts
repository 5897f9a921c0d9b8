import { schemeOf } from './urls.js';

/**
 * Which pages of other sites a page may show in a frame (the `embed` node, blocks.ts), and how. One table, read by the
 * schema's validation, the Markdown and HTML forms, the web editor's node view and the web app's CSP (`frame-src`), so
 * what validation accepts and what the browser may frame cannot drift apart.
 *
 * A link is matched by its parsed host, exactly (never a suffix or a substring: `youtube.com.evil.com` and
 * `evil.com/youtube.com` are other sites), and the frame's address is built from the ids read out of it, each checked
 * against a strict pattern: nothing of the input is pasted into the frame's address as given.
 */

export type EmbedProviderId = 'youtube' | 'vimeo' | 'loom' | 'figma' | 'google-docs' | 'google-sheets' | 'google-slides' | 'miro' | 'codepen';

export interface EmbedProvider {
  id: EmbedProviderId;
  /** As people call it: in error messages, the frame's title, the placeholder and search text. */
  name: string;
  /** The hosts a link to it may name, exactly (lower case, as `URL` gives them). */
  hosts: readonly string[];
  /** Where its frame loads from, and where that address is known to redirect: the app's `frame-src`. */
  frameHosts: readonly string[];
  /** The frame's width and height (an aspect, in the editor; the size, in exported HTML). */
  size: readonly [number, number];
  /** The forms of link it takes, for the error that refuses another form. */
  forms: string;
  /** The frame's address for a parsed link, or null when the link is not a form this provider embeds. */
  frameUrl(url: URL, path: string[]): string | null;
}

/** Longest link an embed may hold (as for links and images). */
export const MAX_EMBED_URL = 2048;

const VIDEO = [640, 360] as const;
const DOCUMENT = [640, 480] as const;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,32}$/;
const LOOM_ID = /(?:^|-)([0-9a-f]{32})$/;
const FIGMA_KEY = /^[A-Za-z0-9]{10,64}$/;
const FIGMA_KINDS = new Set(['file', 'design', 'proto', 'board']);
const FIGMA_NODE = /^\d{1,12}[-:]\d{1,12}$/;
const GOOGLE_ID = /^[A-Za-z0-9_-]{20,128}$/;
const MIRO_ID = /^[A-Za-z0-9_=-]{6,64}$/;
const CODEPEN_USER = /^[A-Za-z0-9_-]{1,64}$/;
const CODEPEN_ID = /^[A-Za-z0-9]{3,16}$/;

const match = (value: string | null | undefined, pattern: RegExp) => (value && pattern.test(value) ? value : null);

/** A start time as YouTube writes it (`t=90`, `t=90s`, `t=1h2m3s`, `start=90`), in whole seconds, or 0. */
function startSeconds(url: URL): number {
  const t = url.searchParams.get('t') ?? url.searchParams.get('start') ?? '';
  const m = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s?)?$/.exec(t);
  if (!t || !m) return 0;
  const seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
  return seconds > 0 && seconds < 1_000_000 ? seconds : 0;
}

function youtube(url: URL, path: string[]): string | null {
  let id: string | null = null;
  if (url.hostname === 'youtu.be') id = path.length === 1 ? match(path[0], YOUTUBE_ID) : null;
  else if (url.hostname.includes('youtube-nocookie')) id = path.length === 2 && path[0] === 'embed' ? match(path[1], YOUTUBE_ID) : null;
  else if (path.length === 1 && path[0] === 'watch') id = match(url.searchParams.get('v'), YOUTUBE_ID);
  else if (path.length === 2 && ['shorts', 'embed', 'live'].includes(path[0])) id = match(path[1], YOUTUBE_ID);
  if (!id) return null;
  const start = startSeconds(url);
  // The privacy-enhanced player: no YouTube cookies until the video plays.
  return `https://www.youtube-nocookie.com/embed/${id}${start ? `?start=${start}` : ''}`;
}

function vimeo(url: URL, path: string[]): string | null {
  let id: string | null = null;
  let hash: string | null = match(url.searchParams.get('h'), VIMEO_HASH);
  if (url.hostname === 'player.vimeo.com') id = path.length === 2 && path[0] === 'video' ? match(path[1], VIMEO_ID) : null;
  else if (path.length === 1) id = match(path[0], VIMEO_ID);
  else if (path.length === 2 && VIMEO_ID.test(path[0])) {
    // An unlisted video: vimeo.com/<id>/<hash>.
    id = path[0];
    hash = match(path[1], VIMEO_HASH);
    if (!hash) return null;
  } else if (path.length === 3 && path[0] === 'channels') id = match(path[2], VIMEO_ID);
  else if (path.length === 4 && path[0] === 'groups' && path[2] === 'videos') id = match(path[3], VIMEO_ID);
  if (!id) return null;
  return `https://player.vimeo.com/video/${id}${hash ? `?h=${hash}` : ''}`;
}

function loom(_url: URL, path: string[]): string | null {
  if (path.length !== 2 || (path[0] !== 'share' && path[0] !== 'embed')) return null;
  const id = LOOM_ID.exec(path[1])?.[1];
  return id ? `https://www.loom.com/embed/${id}` : null;
}

function figma(url: URL, path: string[], depth = 0): string | null {
  if (path.length === 1 && path[0] === 'embed' && depth === 0) {
    // Figma's own embed link: the file it shows is its `url` parameter, read like any Figma link.
    const inner = url.searchParams.get('url');
    if (!inner) return null;
    let parsed: URL;
    try {
      parsed = new URL(inner);
    } catch {
      return null;
    }
    if (parsed.protocol !== 'https:' || parsed.username || parsed.password || parsed.port || !FIGMA.hosts.includes(parsed.hostname)) return null;
    return figma(parsed, segments(parsed), depth + 1);
  }
  if (path.length < 2 || !FIGMA_KINDS.has(path[0])) return null;
  const key = match(path[1], FIGMA_KEY);
  if (!key) return null;
  const node = match(url.searchParams.get('node-id'), FIGMA_NODE);
  const file = `https://www.figma.com/${path[0]}/${key}${node ? `?node-id=${node.replace(':', '-')}` : ''}`;
  return `https://www.figma.com/embed?embed_host=kb&url=${encodeURIComponent(file)}`;
}

/** docs.google.com/<kind>/d/<id>/… → its preview (what anyone the file is shared with can see, no publishing needed). */
function google(kind: string) {
  return (_url: URL, path: string[]): string | null => {
    if (path.length < 3 || path[0] !== kind || path[1] !== 'd') return null;
    const id = match(path[2], GOOGLE_ID);
    return id ? `https://docs.google.com/${kind}/d/${id}/preview` : null;
  };
}

function miro(_url: URL, path: string[]): string | null {
  if (path.length !== 3 || path[0] !== 'app' || (path[1] !== 'board' && path[1] !== 'live-embed')) return null;
  const id = match(path[2], MIRO_ID);
  return id ? `https://miro.com/app/live-embed/${id}/` : null;
}

function codepen(_url: URL, path: string[]): string | null {
  if (path.length !== 3 || (path[1] !== 'pen' && path[1] !== 'embed')) return null;
  const user = match(path[0], CODEPEN_USER);
  const id = match(path[2], CODEPEN_ID);
  return user && id ? `https://codepen.io/${user}/embed/${id}?default-tab=result` : null;
}

const FIGMA: EmbedProvider = {
  id: 'figma',
  name: 'Figma',
  hosts: ['figma.com', 'www.figma.com'],
  // Figma moved its embeds to embed.figma.com; the www.figma.com/embed address is still served and may send the frame there.
  frameHosts: ['www.figma.com', 'embed.figma.com'],
  size: DOCUMENT,
  forms: 'figma.com/file/…, /design/…, /proto/… or /board/…',
  frameUrl: (url, path) => figma(url, path),
};

/** The allowed providers, in the order the error message names them. */
export const EMBED_PROVIDERS: readonly EmbedProvider[] = [
  {
    id: 'youtube',
    name: 'YouTube',
    hosts: ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'www.youtube-nocookie.com', 'youtube-nocookie.com'],
    frameHosts: ['www.youtube-nocookie.com'],
    size: VIDEO,
    forms: 'youtube.com/watch?v=…, youtu.be/… or youtube.com/shorts/…',
    frameUrl: youtube,
  },
  {
    id: 'vimeo',
    name: 'Vimeo',
    hosts: ['vimeo.com', 'www.vimeo.com', 'player.vimeo.com'],
    frameHosts: ['player.vimeo.com'],
    size: VIDEO,
    forms: 'vimeo.com/<number>',
    frameUrl: vimeo,
  },
  {
    id: 'loom',
    name: 'Loom',
    hosts: ['loom.com', 'www.loom.com'],
    frameHosts: ['www.loom.com'],
    size: VIDEO,
    forms: 'loom.com/share/…',
    frameUrl: loom,
  },
  FIGMA,
  {
    id: 'google-docs',
    name: 'Google Docs',
    hosts: ['docs.google.com'],
    frameHosts: ['docs.google.com'],
    size: DOCUMENT,
    forms: 'docs.google.com/document/d/…',
    frameUrl: google('document'),
  },
  {
    id: 'google-sheets',
    name: 'Google Sheets',
    hosts: ['docs.google.com'],
    frameHosts: ['docs.google.com'],
    size: DOCUMENT,
    forms: 'docs.google.com/spreadsheets/d/…',
    frameUrl: google('spreadsheets'),
  },
  {
    id: 'google-slides',
    name: 'Google Slides',
    hosts: ['docs.google.com'],
    frameHosts: ['docs.google.com'],
    size: DOCUMENT,
    forms: 'docs.google.com/presentation/d/…',
    frameUrl: google('presentation'),
  },
  {
    id: 'miro',
    name: 'Miro',
    hosts: ['miro.com', 'www.miro.com'],
    frameHosts: ['miro.com'],
    size: DOCUMENT,
    forms: 'miro.com/app/board/…',
    frameUrl: miro,
  },
  {
    id: 'codepen',
    name: 'CodePen',
    hosts: ['codepen.io'],
    frameHosts: ['codepen.io'],
    size: DOCUMENT,
    forms: 'codepen.io/<user>/pen/…',
    frameUrl: codepen,
  },
];

export const EMBED_PROVIDER_IDS = EMBED_PROVIDERS.map((p) => p.id);

/** Every host a frame of an allowed embed loads from: the web app's `frame-src`, exactly. */
export const EMBED_FRAME_HOSTS: readonly string[] = [...new Set(EMBED_PROVIDERS.flatMap((p) => p.frameHosts))].sort();

/** "YouTube, Vimeo, …, Miro and CodePen": what every refusal says is allowed. */
export const ALLOWED_EMBED_PROVIDERS = `${EMBED_PROVIDERS.slice(0, -1)
  .map((p) => p.name)
  .join(', ')} and ${EMBED_PROVIDERS[EMBED_PROVIDERS.length - 1].name}`;

/**
 * What an embed's frame may do: run the provider's player (scripts, its own origin's storage and sign-in, which the
 * players need), open links in a new tab, and go full screen. Never navigate this page, submit forms or open modals.
 */
export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-presentation';
export const EMBED_ALLOW = 'fullscreen';
/**
 * The app answers with `Referrer-Policy: no-referrer`; YouTube's player refuses to play without knowing the embedding
 * site (its "Error 153"), so a frame sends our origin, and only that (never the page's path).
 */
export const EMBED_REFERRER_POLICY = 'strict-origin-when-cross-origin';

export type EmbedCheck = { ok: true; provider: EmbedProvider; src: string; frameUrl: string } | { ok: false; reason: string };

/** What a browser drops or misreads in a URL, and what another Markdown or HTML reader may read differently. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\\s]/u;

const segments = (url: URL) => url.pathname.split('/').filter(Boolean);

const refuse = (reason: string): EmbedCheck => ({ ok: false, reason: `${reason}; embeds may show ${ALLOWED_EMBED_PROVIDERS} (https links)` });

/**
 * Reads a link to embed: which provider shows it and the frame's address, or why it is refused (each reason names the
 * allowed providers). Refused: anything but a string of at most MAX_EMBED_URL characters, spaces or control
 * characters or backslashes anywhere, a scheme other than https (`javascript:`, `data:`, `http:`…), a user name or
 * password, a port, a host not on the list, and a link of a listed host in a form the provider does not embed.
 */
export function checkEmbedUrl(src: unknown): EmbedCheck {
  if (typeof src !== 'string' || src === '') return refuse('an embed needs a link');
  if (src.length > MAX_EMBED_URL) return refuse(`an embed's link must be at most ${MAX_EMBED_URL} characters`);
  if (UNSAFE_CHARACTERS.test(src)) return refuse("an embed's link must be one address without spaces, control characters or backslashes");
  const scheme = schemeOf(src);
  if (scheme !== 'https') return refuse(scheme ? `an embed's link must be https, not ${scheme.slice(0, 32)}:` : "an embed's link must be a full https address");
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return refuse("an embed's link must be a valid address");
  }
  if (url.username || url.password) return refuse("an embed's link must not carry a user name or password");
  if (url.port) return refuse("an embed's link must not name a port");
  const candidates = EMBED_PROVIDERS.filter((p) => p.hosts.includes(url.hostname));
  if (candidates.length === 0) return refuse(`the host ${url.hostname.slice(0, 100)} is not an allowed embed provider`);
  const path = segments(url);
  for (const provider of candidates) {
    const frameUrl = provider.frameUrl(url, path);
    if (frameUrl) return { ok: true, provider, src, frameUrl };
  }
  const forms = candidates.map((p) => `${p.name}: ${p.forms}`).join('; ');
  return refuse(`this ${url.hostname} link is not one that can be embedded (${forms})`);
}

/** The provider named by id, or undefined. */
export function embedProvider(id: unknown): EmbedProvider | undefined {
  return EMBED_PROVIDERS.find((p) => p.id === id);
}
