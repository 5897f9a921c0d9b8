/**
 * File and folder names in an export: safe on Windows, macOS and Linux, and unique among siblings. A name keeps
 * the title's words; characters no file system takes (`/ \ : * ? " < > |`, controls) become spaces; no leading
 * dot (hidden files), no trailing dot or space (Windows drops them), no device name (`CON`, `LPT1`), at most
 * MAX_NAME_BYTES bytes of UTF-8 with its extension and any ` (2)` suffix. Uniqueness ignores case, since macOS and
 * Windows do.
 */

export const MAX_NAME_BYTES = 120;
/** The folder beside pages that holds their attachments; no page may take its name. */
export const ATTACHMENTS_FOLDER = '_attachments';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** The longest prefix of `text` that fits in `bytes` bytes of UTF-8, never splitting a character. */
function truncateBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (used + n > bytes) break;
    out += ch;
    used += n;
  }
  return out;
}

/** A title or file name stem made safe (not yet bounded in length); `fallback` when nothing is left. */
export function safeStem(raw: string, fallback = 'Untitled'): string {
  let name = raw.normalize('NFC').replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (!name) return fallback;
  if (DEVICE.test(name)) name = `${name}_`;
  return name;
}

/** A file name's stem and extension (`.png`; empty when it has none or an odd one). */
export function splitExtension(filename: string): { stem: string; ext: string } {
  const m = /^(.+?)(\.[A-Za-z0-9]{1,16})$/.exec(filename);
  return m ? { stem: m[1], ext: m[2].toLowerCase() } : { stem: filename, ext: '' };
}

/**
 * The names taken in one folder. `claim(stem, ext)` returns `stem + ext`, or `stem (2) + ext`, `stem (3) + ext` …,
 * the first not yet taken, shortened to fit MAX_NAME_BYTES. `reserve` marks a name as taken without using it.
 */
export class FolderNames {
  private readonly taken = new Set<string>();

  reserve(name: string) {
    this.taken.add(name.toLowerCase());
  }

  /** Claims a stem for a page: `stem.ext` for its file and `stem/` for its children's folder, both at once. */
  claim(stem: string, ext: string, sameStemFor: string[] = []): string {
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const room = MAX_NAME_BYTES - Buffer.byteLength(suffix) - Math.max(Buffer.byteLength(ext), ...sameStemFor.map((e) => Buffer.byteLength(e)));
      const base = truncateBytes(stem, room).replace(/[.\s]+$/, '') || 'Untitled';
      const candidate = `${base}${suffix}`;
      const keys = [ext, ...sameStemFor].map((e) => `${candidate}${e}`.toLowerCase());
      if (keys.some((k) => this.taken.has(k))) continue;
      for (const k of keys) this.taken.add(k);
      return candidate;
    }
  }
}

/** A relative URL from the file at `fromPath` to `toPath` (both zip paths), each segment percent-encoded. */
export function relativeUrl(fromPath: string, toPath: string): string {
  const from = fromPath.split('/').slice(0, -1);
  const to = toPath.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  return [...up, ...to.slice(common)]
    .map((s) => (s === '..' ? s : encodeURIComponent(s).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)))
    .join('/');
}
