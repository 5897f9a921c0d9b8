import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeContent, encodeContent, removeLocal, writeAtomic } from '../../src/cli/sync/content.js';
import { conflictSidePath, isConflictSideFile, isInternal, localPath, pathFilter, unsafePathReason } from '../../src/cli/sync/paths.js';
import { sha256 } from '../../src/cli/sync/scanner.js';
import { FileLock } from '../../src/cli/sync/state.js';

/** The connector's pieces that guard the disk: path checks, atomic writes, content encoding, the lock. */
const root = mkdtempSync(path.join(tmpdir(), 'kb-sync-parts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('paths from the service', () => {
  it('refuses every unsafe shape', () => {
    // The reason codes are the service's (src/sync-rules/paths.ts): one rule on both sides.
    const bad: Array<[string, string]> = [
      ['', 'empty'],
      ['../x', 'parent_segment'],
      ['a/../../x', 'parent_segment'],
      ['/etc/passwd', 'absolute'],
      ['C:/x', 'absolute'],
      ['a\\b', 'backslash'],
      ['a\0b', 'control_character'],
      ['a//b', 'empty_segment'],
      ['a/./b', 'dot_segment'],
      ['./a', 'dot_segment'],
      ['a/', 'directory'],
      ['.kb-sync/state.json', 'reserved'],
      ['x'.repeat(1025), 'too_long'],
      ['a\nb', 'control_character'],
    ];
    for (const [rel, reason] of bad) expect(unsafePathReason(rel), rel).toBe(reason);
    for (const [rel] of bad) expect(() => localPath(root, rel)).toThrow(/unsafe path/);
    expect(unsafePathReason('docs/ünï code.md')).toBeNull();
    expect(unsafePathReason('.kb-syncx/a')).toBeNull();
    expect(localPath(root, 'a/b.md')).toBe(path.join(root, 'a', 'b.md'));
  });

  it('names conflict side files and never syncs them or the state folder', () => {
    expect(conflictSidePath('docs/a.md')).toBe('docs/a.service-conflict.md');
    expect(conflictSidePath('Makefile')).toBe('Makefile.service-conflict');
    expect(conflictSidePath('.env')).toBe('.env.service-conflict');
    expect(conflictSidePath('a/b.tar.gz')).toBe('a/b.tar.service-conflict.gz');
    for (const p of ['docs/a.service-conflict.md', 'Makefile.service-conflict', '.env.service-conflict', '.kb-sync', '.kb-sync/tmp/x'])
      expect(isInternal(p), p).toBe(true);
    expect(isConflictSideFile('.service-conflict')).toBe(false);
    expect(isInternal('docs/a.md')).toBe(false);
  });

  it('applies include and exclude globs with the service’s matcher (dot files included)', () => {
    const f = pathFilter(['docs/**', '*.md'], ['**/*.tmp', 'docs/private/**']);
    expect(f('docs/a.txt')).toBe(true);
    expect(f('docs/.hidden')).toBe(true);
    expect(f('readme.md')).toBe(true);
    expect(f('src/x.ts')).toBe(false);
    expect(f('docs/x.tmp')).toBe(false);
    expect(f('docs/private/a.md')).toBe(false);
    expect(pathFilter([], [])('anything/at/all')).toBe(true);
  });
});

describe('writing files', () => {
  it('writes atomically through .kb-sync/tmp, creates folders, keeps the mode of a replaced file, removes empty folders', async () => {
    const w = await writeAtomic(root, 'deep/er/file.txt', Buffer.from('one'));
    expect(readFileSync(path.join(root, 'deep/er/file.txt'), 'utf8')).toBe('one');
    expect(w.size).toBe(3);
    const full = path.join(root, 'deep/er/file.txt');
    const { chmodSync } = await import('node:fs');
    chmodSync(full, 0o755);
    await writeAtomic(root, 'deep/er/file.txt', Buffer.from('two'));
    expect(readFileSync(full, 'utf8')).toBe('two');
    expect(statSync(full).mode & 0o777).toBe(0o755);
    await removeLocal(root, 'deep/er/file.txt');
    expect(() => statSync(path.join(root, 'deep'))).toThrow();
  });

  it('refuses to write through a symbolic link that leads outside the folder', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'kb-sync-outside-'));
    try {
      symlinkSync(outside, path.join(root, 'escape'));
      await expect(writeAtomic(root, 'escape/pwned.txt', Buffer.from('x'))).rejects.toThrow(/outside the folder/);
      expect(() => statSync(path.join(outside, 'pwned.txt'))).toThrow();
      await expect(writeAtomic(root, '../pwned.txt', Buffer.from('x'))).rejects.toThrow(/unsafe path/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses to replace a folder with a file', async () => {
    mkdirSync(path.join(root, 'adir'));
    writeFileSync(path.join(root, 'adir/keep'), 'k');
    await expect(writeAtomic(root, 'adir', Buffer.from('x'))).rejects.toThrow(/folder of that name/);
    expect(readFileSync(path.join(root, 'adir/keep'), 'utf8')).toBe('k');
  });
});

describe('content encoding', () => {
  it('sends a MIME type: text types as UTF-8 text, everything else as Base64, byte for byte', () => {
    const samples: Array<[string, Buffer, string]> = [
      ['notes/a.md', Buffer.from('plain\nlines\r\n'), 'text/markdown'],
      ['b.txt', Buffer.from('\uFEFFwith BOM ünïcode ✓'), 'text/plain'],
      ['img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]), 'image/png'],
      ['c.txt', Buffer.from('has\0nul'), 'application/octet-stream'],
      ['d.md', Buffer.from([0xc3, 0x28]), 'application/octet-stream'],
      ['data.json', Buffer.from('{"a":1}'), 'application/json'],
      ['Makefile', Buffer.from('all:\n'), 'text/plain'],
      ['blob', Buffer.from([0xff, 0x00]), 'application/octet-stream'],
      ['empty', Buffer.alloc(0), 'text/plain'],
    ];
    expect(samples.map(([rel, b]) => encodeContent(rel, b).contentType)).toEqual(samples.map(([, , type]) => type));
    for (const [rel, b] of samples) {
      const e = encodeContent(rel, b);
      expect(sha256(decodeContent(e.content, e.contentType))).toBe(sha256(b));
      expect(e.content).toBe(e.contentType.startsWith('text/') || e.contentType === 'application/json' ? b.toString('utf8') : b.toString('base64'));
    }
    // Content from an older service still decodes by the words text/binary.
    expect(decodeContent('aGk=', 'binary').toString()).toBe('hi');
    expect(decodeContent('hi', 'text').toString()).toBe('hi');
    expect(() => decodeContent('not base64!', 'image/png')).toThrow(/Base64/);
  });
});

describe('the folder lock', () => {
  it('is exclusive while held and taken over when its process is gone', async () => {
    const file = path.join(root, '.kb-sync', 'test.lock');
    const a = new FileLock(file);
    expect(await a.tryAcquire()).toBeNull();
    writeFileSync(file, '999999999'); // a pid that does not exist
    const b = new FileLock(file);
    expect(await b.tryAcquire()).toBeNull();
    const c = new FileLock(file);
    expect(await c.tryAcquire()).toBe(process.pid); // held by a live process (this one)
    await b.release();
    expect(await c.tryAcquire()).toBeNull();
    await c.release();
  });
});
