import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileGlob, globMatches, pathFilter } from '../../src/sync-rules/globs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { workspaceWithRoles } from '../helpers/factories.js';
import { push, type SyncClient, setupSource, syncClient, upsert } from './helpers.js';

const REDOS = 'a*a*a*a*a*a*a*a*a*a*a*a*b';

describe('glob matching (shared by the service and the connector)', () => {
  it('matches a backtracking-heavy pattern in time bounded by pattern × path length', () => {
    // A regular expression engine took about 4 s for this pattern against 32 characters (more for longer paths).
    for (const path of ['a'.repeat(32), 'a'.repeat(1000), `${'a/'.repeat(300)}a`]) {
      const started = performance.now();
      expect(globMatches(REDOS, path)).toBe(false);
      expect(globMatches(`**/${REDOS}`, path)).toBe(false);
      expect(performance.now() - started).toBeLessThan(50);
    }
    expect(globMatches(REDOS, `${'a'.repeat(30)}b`)).toBe(true);
  });

  it('keeps the picomatch meaning of the patterns sources use (dot files included)', () => {
    const cases: Array<[string, string, boolean]> = [
      ['**/*.md', 'notes/deep/a.md', true],
      ['**/*.md', '.hidden.md', true],
      ['**/*.md', 'a.md', true],
      ['*.txt', 'nested/x.txt', false],
      ['drafts/**', 'drafts/wip.md', true],
      ['drafts/**', 'drafts', true],
      ['**/.obsidian/**', 'vault/.obsidian/config.md', true],
      ['a/**/c', 'a/c', true],
      ['a/**/c', 'a/x/y/c', true],
      ['a/*/c', 'a/x/y/c', false],
      ['?.md', 'a.md', true],
      ['?.md', 'ab.md', false],
      ['[a-c]*.md', 'b.md', true],
      ['[!a]*.md', 'a.md', false],
      ['[!a]*.md', 'b.md', true],
      ['{docs,notes}/**', 'notes/a', true],
      ['*.{md,txt}', 'x.txt', true],
      ['*.{md,txt}', 'x.png', false],
      ['a\\*b', 'a*b', true],
      ['a\\*b', 'axb', false],
      ['!*.md', 'a.png', true],
      ['!*.md', 'a.md', false],
      ['./docs/*', 'docs/a', true],
      ['ä*', 'äx', true],
    ];
    for (const [pattern, path, expected] of cases) expect(globMatches(pattern, path), `${pattern} ~ ${path}`).toBe(expected);
    const f = pathFilter(['**/*.md'], ['drafts/**']);
    expect([f('a.md'), f('drafts/a.md'), f('a.txt')]).toEqual([true, false, false]);
  });

  it('refuses extglobs, brace ranges, brace explosions and too many stars', () => {
    const refused: Array<[string, string]> = [
      ['@(a|b).md', 'unsupported_syntax'],
      ['+(a).md', 'unsupported_syntax'],
      ['file{1..9}.md', 'unsupported_syntax'],
      ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}', 'too_complex'],
      ['*a'.repeat(21), 'too_complex'],
      ['x'.repeat(501), 'too_complex'],
      ['[abc', 'invalid_glob'],
      ['  ', 'invalid_glob'],
    ];
    for (const [pattern, reason] of refused) expect(compileGlob(pattern), pattern).toMatchObject({ ok: false, reason });
    // An escaped parenthesis is a literal one.
    expect(globMatches('a\\(1\\).md', 'a(1).md')).toBe(true);
  });
});

describe('globs over HTTP', () => {
  let t: TestApp;
  let sync: SyncClient;
  beforeAll(async () => {
    t = await createTestApp();
    const w = await workspaceWithRoles(t);
    sync = syncClient(t, w.editor, w.workspace.id);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a ReDoS pattern no longer stalls a push', async () => {
    const { sourceId } = await setupSource(sync, 'bidirectional', { includePatterns: [REDOS] });
    const started = performance.now();
    const results = await push(sync, sourceId, [upsert('a'.repeat(32), 'x'), upsert('a'.repeat(1000), 'y'), upsert(`${'a'.repeat(12)}b`, 'z')]);
    // Before the fix this request blocked the whole service for seconds (minutes for the 1,000-character path).
    expect(performance.now() - started).toBeLessThan(5000);
    expect(results.map((r) => [r.status, r.error?.reason ?? null])).toEqual([
      ['rejected', 'excluded_by_pattern'],
      ['rejected', 'excluded_by_pattern'],
      ['applied', null],
    ]);
  });

  it('refuses risky patterns with 422 naming the pattern and the reason', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ includePatterns: ['**/*.md', '@(a|b)'] }, 'includePatterns.1', 'unsupported_syntax'],
      [{ excludePatterns: ['*a'.repeat(21)] }, 'excludePatterns.0', 'too_complex'],
      [{ includePatterns: ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}'] }, 'includePatterns.0', 'too_complex'],
      [{ includePatterns: ['n{1..1000000}'] }, 'includePatterns.0', 'unsupported_syntax'],
    ];
    for (const [extra, field, reason] of cases) {
      const res = await sync('sources', { name: `g-${field}-${reason}`, mode: 'bidirectional', ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason } });
    }
    expect((await sync('sources/list', {})).body.sources.filter((s: any) => s.name.startsWith('g-'))).toEqual([]);
  });
});
