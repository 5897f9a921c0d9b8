import { Node } from '@tiptap/core';
import type { DOMOutputSpec } from '@tiptap/pm/model';
import { schemeOf } from './urls.js';

/**
 * Files, videos and audio of a page (`fileAttachment`, `video`, `audio`): most often an attachment uploaded to the page
 * (its download address, `/api/v1/attachments/<id>/download`), or a file elsewhere on the web (an http(s) address).
 * - `fileAttachment` { url, name (1–255), size (bytes, or null), mime (`type/subtype`, or null) }: a card with the
 *   name, the size and a download link. Markdown `::file[name](url){size=1234 type="application/pdf"}` on a line of
 *   its own (a plain Markdown reader shows a link named as the file); HTML `<a class="file" data-file download href>`.
 * - `video` / `audio` { src, title (or null) }: the browser's own player. Markdown `::video[title](url)` and
 *   `::audio[title](url)`; HTML `<video controls preload="metadata" src>` / `<audio …>` holding a link to the file,
 *   for readers without players.
 * The address is checked the same way everywhere (checkMediaUrl): what the schema refuses, an API write gets a 422 for.
 */

/** Longest address of a file (as for links, images and embeds). */
export const MAX_MEDIA_URL = 2048;
/** Longest file name (as attachments keep them) and title. */
export const MAX_FILE_NAME = 255;
export const MAX_MEDIA_TITLE = 255;
/** Longest MIME type kept on a file block (the essence `type/subtype`, without parameters). */
export const MAX_MIME = 100;

/**
 * An attachment of this service, as the web editor inserts it (relative, so it follows the service's address), or
 * the same attachment as a public share serves it (what the share view's content carries, shares.links.ts).
 */
export const ATTACHMENT_PATH =
  /^\/api\/(?:v1\/)?(?:attachments\/[A-Za-z0-9_-]{1,100}\/download|public\/shares\/[A-Za-z0-9_-]{1,200}\/attachments\/[A-Za-z0-9_-]{1,100})$/;
/** `type/subtype` as RFC 6838 spells its names, lower or upper case. */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i;
/** What a browser drops or misreads in a URL, and what a Markdown or HTML reader may read differently. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u0020\u007f-\u009f\\\s]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

export type MediaUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Reads the address of a file, video or audio: an attachment of this service (`/api/v1/attachments/<id>/download`)
 * or a full http(s) address, at most MAX_MEDIA_URL characters, without spaces, control characters, backslashes, a user
 * name or password. Anything else (`javascript:`, `data:`, another relative path) is refused, naming what is allowed.
 */
export function checkMediaUrl(url: unknown, what = 'a file'): MediaUrlCheck {
  if (typeof url !== 'string' || url === '') return { ok: false, reason: `${what} needs an address` };
  if (url.length > MAX_MEDIA_URL) return { ok: false, reason: `the address of ${what} must be at most ${MAX_MEDIA_URL} characters` };
  if (UNSAFE_CHARACTERS.test(url)) return { ok: false, reason: `the address of ${what} must be one address without spaces, control characters or backslashes` };
  const scheme = schemeOf(url);
  if (scheme === null) {
    if (ATTACHMENT_PATH.test(url)) return { ok: true, url };
    return { ok: false, reason: `the address of ${what} must be an attachment of this service (/api/v1/attachments/<id>/download) or a full http(s) address` };
  }
  if (scheme !== 'http' && scheme !== 'https')
    return { ok: false, reason: `the address of ${what} must be an attachment or http(s), not ${scheme.slice(0, 32)}:` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `the address of ${what} must be a valid address` };
  }
  if (!parsed.hostname) return { ok: false, reason: `the address of ${what} must name a host` };
  if (parsed.username || parsed.password) return { ok: false, reason: `the address of ${what} must not carry a user name or password` };
  return { ok: true, url };
}

/** A name or title as a block keeps it: one line, trimmed, at most `max` characters (cut with an ellipsis), or null. */
export function cleanMediaName(name: unknown, max = MAX_FILE_NAME): string | null {
  if (typeof name !== 'string') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters become spaces
  const line = name.replace(/[\s\u0000-\u001f\u007f-\u009f]+/gu, ' ').trim();
  if (!line) return null;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A MIME type's essence (`text/plain` of `text/plain; charset=utf-8`), lower case, or null when it is not one. */
export function cleanMime(type: unknown): string | null {
  if (typeof type !== 'string') return null;
  const essence = type.split(';')[0].trim().toLowerCase();
  return essence.length <= MAX_MIME && MIME.test(essence) ? essence : null;
}

/** A size as people read it: 512 bytes, 12 KB, 3.4 MB, 1.2 GB (powers of 1,024, as file managers show them). */
export function humanSize(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${units[unit]}`;
}

/** Which block a file of this type becomes when it is dropped or chosen: its own player for video and audio. */
export function blockTypeForFile(mime: string | null | undefined): 'video' | 'audio' | 'fileAttachment' {
  const essence = cleanMime(mime ?? '') ?? '';
  if (essence.startsWith('video/')) return 'video';
  if (essence.startsWith('audio/')) return 'audio';
  return 'fileAttachment';
}

const fail = (message: string): never => {
  throw new RangeError(message);
};
const urlAttr = (what: string) => (v: unknown) => {
  const check = checkMediaUrl(v, what);
  if (!check.ok) fail(check.reason);
};
const line = (max: number, required: boolean) => (v: unknown) => {
  if (v === null && !required) return;
  if (typeof v !== 'string') fail(required ? 'must be a string' : 'must be null or a string');
  const s = v as string;
  if (required && !s.trim()) fail('must not be empty');
  if (s.length > max) fail(`must be at most ${max} characters`);
  if (CONTROL.test(s)) fail('must be one line without control characters');
};
const sizeAttr = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail('must be null or a whole number of bytes');
};
const mimeAttr = (v: unknown) => {
  if (v === null) return;
  if (typeof v !== 'string' || v.length > MAX_MIME || !MIME.test(v))
    fail(`must be null or a MIME type such as "application/pdf" (at most ${MAX_MIME} characters)`);
};

/** Names the attribute in a refusal ("attribute "name" of fileAttachment must be…"), so an API caller knows what to fix. */
const named = (node: string, name: string, validate: (v: unknown) => void) => (v: unknown) => {
  try {
    validate(v);
  } catch (err) {
    fail(`attribute "${name}" of ${node} ${(err as Error).message}`);
  }
};

/** An attribute kept in the node only (its HTML form is written by the node's `renderHTML`). */
const attr = (validate: (v: unknown) => void) => ({ default: null, validate, parseHTML: () => null, renderHTML: () => ({}) });

/** A file's HTML: a download link named as the file, with its size after the name. */
export function fileHtml(attrs: { url?: unknown; name?: unknown; size?: unknown; mime?: unknown }): DOMOutputSpec {
  const url = String(attrs.url ?? '');
  const name = String(attrs.name ?? '') || 'file';
  const size = typeof attrs.size === 'number' ? attrs.size : null;
  const a: Record<string, string> = { href: url, class: 'file', 'data-file': '', download: name };
  if (size !== null) a['data-size'] = String(size);
  if (typeof attrs.mime === 'string') a['data-type'] = attrs.mime;
  return size === null ? ['a', a, name] : ['a', a, name, ['span', { class: 'file-size' }, ` (${humanSize(size)})`]];
}

/** A file block read from HTML (kb's own `<a data-file>`), or false when its address is not one a file block takes. */
const fileFromHtml = (el: HTMLElement) => {
  const check = checkMediaUrl(el.getAttribute('href'));
  if (!check.ok) return false;
  const size = Number(el.getAttribute('data-size'));
  const name = cleanMediaName(el.getAttribute('download')) ?? cleanMediaName(el.textContent) ?? 'file';
  return {
    url: check.url,
    name,
    size: Number.isSafeInteger(size) && size >= 0 && el.hasAttribute('data-size') ? size : null,
    mime: cleanMime(el.getAttribute('data-type')),
  };
};

export const FileAttachment = Node.create({
  name: 'fileAttachment',
  group: 'block',
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      url: attr(urlAttr('a file')),
      name: attr(named('fileAttachment', 'name', line(MAX_FILE_NAME, true))),
      size: attr(named('fileAttachment', 'size', sizeAttr)),
      mime: attr(named('fileAttachment', 'mime', mimeAttr)),
    };
  },
  parseHTML() {
    // Above the link mark's rule (marks are tried first at equal priority): a file is a block, not a linked text.
    return [{ tag: 'a[data-file]', priority: 60, getAttrs: fileFromHtml }];
  },
  renderHTML({ node }) {
    return fileHtml(node.attrs);
  },
});

/** The address a `<video>` or `<audio>` plays: its `src`, else its first `<source src>`. */
export function mediaSourceOf(el: Element): string | null {
  return el.getAttribute('src') ?? el.querySelector('source[src]')?.getAttribute('src') ?? null;
}

/** A player's HTML: the browser's own controls, only the file's length fetched until played, and a link inside for readers without players. */
export function mediaHtml(tag: 'video' | 'audio', src: string, title: string | null): DOMOutputSpec {
  const attrs: Record<string, string> = { src, controls: '', preload: 'metadata', class: tag };
  if (title) attrs.title = title;
  return [tag, attrs, ['a', { href: src }, title || src]];
}

function mediaNode(tag: 'video' | 'audio') {
  const what = tag === 'video' ? 'a video' : 'an audio file';
  const fromHtml = (el: HTMLElement) => {
    const check = checkMediaUrl(mediaSourceOf(el), what);
    return check.ok ? { src: check.url, title: cleanMediaName(el.getAttribute('title'), MAX_MEDIA_TITLE) } : false;
  };
  return Node.create({
    name: tag,
    group: 'block',
    atom: true,
    selectable: true,
    draggable: true,
    addAttributes() {
      return { src: attr(urlAttr(what)), title: attr(named(tag, 'title', line(MAX_MEDIA_TITLE, false))) };
    },
    parseHTML() {
      return [{ tag, getAttrs: fromHtml }];
    },
    renderHTML({ node }) {
      return mediaHtml(tag, String(node.attrs.src ?? ''), node.attrs.title ?? null);
    },
  });
}

export const Video = mediaNode('video');
export const Audio = mediaNode('audio');

/** Each node's address attribute and what it is called in messages; the first attributes a write must give (validate.ts). */
const ADDRESSED: Record<string, { attr: 'url' | 'src'; what: string; required: string[] }> = {
  fileAttachment: { attr: 'url', what: 'a file', required: ['url', 'name'] },
  video: { attr: 'src', what: 'a video', required: ['src'] },
  audio: { attr: 'src', what: 'an audio file', required: ['src'] },
};

/** Why a file, video or audio node given as JSON is refused (a required attribute missing, its address), or null. */
export function mediaNodeProblem(type: string, attrs: Record<string, unknown> | null | undefined): string | null {
  const spec = ADDRESSED[type];
  if (!spec) return null;
  for (const name of spec.required) if (typeof attrs?.[name] !== 'string') return `attribute "${name}" of ${type} is required`;
  const check = checkMediaUrl(attrs?.[spec.attr], spec.what);
  return check.ok ? null : check.reason;
}

export const fileBlockExtensions = [FileAttachment, Video, Audio];
