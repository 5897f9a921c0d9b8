/**
 * Include/exclude globs of local sync, shared by the service and the connector. Matched by our own matcher rather
 * than a backtracking regular expression: a regex engine can take exponential time on a pattern like
 * `a*a*a*a*a*a*a*a*a*a*a*a*b` (seconds for a 32-character path), while this matcher is bounded by
 * pattern length × path length. Syntax (picomatch-compatible with `dot: true`, minus its riskier parts):
 * `*` (within a segment), `**` (a whole segment: any number of segments), `?`, `[a-z]` / `[!a-z]` classes,
 * `{a,b}` alternatives, `\` escapes, a leading `!` negates. Extglobs (`@(…)`, `+(…)`, …) and brace ranges
 * (`{1..9}`) are refused.
 */

export const MAX_PATTERN_LENGTH = 500;
/** `*` and `**` per alternative of a pattern. */
export const MAX_PATTERN_STARS = 20;
/** Alternatives a pattern's braces may expand to. */
export const MAX_BRACE_ALTERNATIVES = 32;

export type GlobReason = 'invalid_glob' | 'too_complex' | 'unsupported_syntax';
export type PathMatcher = (path: string) => boolean;
export type GlobCheck = { ok: true; matcher: CompiledGlob } | { ok: false; reason: GlobReason; message: string };

type Token = { kind: 'char'; ch: string } | { kind: 'one' } | { kind: 'star' } | { kind: 'class'; negated: boolean; ranges: [string, string][] };
const GLOBSTAR = 'globstar' as const;
type Segment = Token[] | typeof GLOBSTAR;

/** A compiled pattern: its alternatives (brace expansion) as segment lists, and whether it is negated. */
export interface CompiledGlob {
  negated: boolean;
  alternatives: Segment[][];
}

class GlobError extends Error {
  constructor(
    readonly reason: GlobReason,
    message: string,
  ) {
    super(message);
  }
}

/** Compiles one pattern, or says why it is refused. */
export function compileGlob(pattern: string): GlobCheck {
  try {
    if (pattern.trim() === '') throw new GlobError('invalid_glob', 'a pattern must not be empty');
    if (pattern.length > MAX_PATTERN_LENGTH) throw new GlobError('too_complex', `a pattern is at most ${MAX_PATTERN_LENGTH} characters`);
    const negated = pattern.startsWith('!') && !pattern.startsWith('!(');
    const body = negated ? pattern.slice(1) : pattern;
    refuseExtglobs(body);
    const alternatives = expandBraces(body).map(compileAlternative);
    return { ok: true, matcher: { negated, alternatives } };
  } catch (err) {
    if (err instanceof GlobError) return { ok: false, reason: err.reason, message: err.message };
    throw err;
  }
}

function refuseExtglobs(pattern: string) {
  for (let i = 0; i < pattern.length - 1; i++) {
    if (pattern[i] === '\\') i++;
    else if ('@!+*?'.includes(pattern[i]) && pattern[i + 1] === '(')
      throw new GlobError('unsupported_syntax', `extglobs like "${pattern[i]}(…)" are not supported (escape the parenthesis as "\\(")`);
  }
}

/** The index of the closing `}` of the brace at `open`, and the top-level commas inside; null when unclosed. */
function braceAt(p: string, open: number): { close: number; commas: number[] } | null {
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '{') depth++;
    else if (p[i] === ',' && depth === 1) commas.push(i);
    else if (p[i] === '}' && --depth === 0) return { close: i, commas };
  }
  return null;
}

/** `a{b,c{d,e}}f` → abf, acdf, acef; at most MAX_BRACE_ALTERNATIVES. A brace without a comma is literal. */
function expandBraces(p: string): string[] {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] !== '{') continue;
    const brace = braceAt(p, i);
    if (!brace) return [p];
    if (!brace.commas.length) {
      if (p.slice(i + 1, brace.close).includes('..'))
        throw new GlobError('unsupported_syntax', 'brace ranges like "{1..9}" are not supported: list the values');
      continue;
    }
    const bounds = [i, ...brace.commas, brace.close];
    const out: string[] = [];
    for (let k = 0; k < bounds.length - 1; k++) {
      for (const expanded of expandBraces(p.slice(0, i) + p.slice(bounds[k] + 1, bounds[k + 1]) + p.slice(brace.close + 1))) {
        out.push(expanded);
        if (out.length > MAX_BRACE_ALTERNATIVES) throw new GlobError('too_complex', `braces expand to more than ${MAX_BRACE_ALTERNATIVES} alternatives`);
      }
    }
    return out;
  }
  return [p];
}

function compileAlternative(p: string): Segment[] {
  const text = p.startsWith('./') ? p.slice(2) : p;
  let stars = 0;
  const segments = text.split('/').map((s): Segment => {
    if (s === '**') {
      stars++;
      return GLOBSTAR;
    }
    const tokens = tokenize(s);
    stars += tokens.filter((t) => t.kind === 'star').length;
    return tokens;
  });
  if (stars > MAX_PATTERN_STARS) throw new GlobError('too_complex', `a pattern has at most ${MAX_PATTERN_STARS} "*" wildcards`);
  return segments;
}

function tokenize(segment: string): Token[] {
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\') {
      if (i + 1 >= chars.length) throw new GlobError('invalid_glob', 'a pattern must not end with a lone "\\"');
      tokens.push({ kind: 'char', ch: chars[++i] });
    } else if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[') i = readClass(chars, i, tokens);
    else tokens.push({ kind: 'char', ch: c });
  }
  return tokens;
}

/** Reads `[…]` starting at `open` into a class token; returns the index of its `]`. */
function readClass(chars: string[], open: number, tokens: Token[]): number {
  let i = open + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const ranges: [string, string][] = [];
  for (let first = true; i < chars.length; i++, first = false) {
    let c = chars[i];
    if (c === ']' && !first) {
      tokens.push({ kind: 'class', negated, ranges });
      return i;
    }
    if (c === '\\' && i + 1 < chars.length) c = chars[++i];
    if (chars[i + 1] === '-' && i + 2 < chars.length && chars[i + 2] !== ']') {
      ranges.push([c, chars[i + 2]]);
      i += 2;
    } else ranges.push([c, c]);
  }
  throw new GlobError('invalid_glob', 'unclosed "[" in a pattern (escape it as "\\[")');
}

const matchesToken = (t: Token, c: string): boolean => {
  if (t.kind === 'char') return t.ch === c;
  if (t.kind === 'one') return true;
  if (t.kind === 'class') return t.ranges.some(([lo, hi]) => c >= lo && c <= hi) !== t.negated;
  return false;
};

/**
 * Wildcard matching of one path segment: on a mismatch, only the most recent `*` is moved on, which is exact for
 * `*` (earlier stars never need to match more) and costs at most segment length × pattern length.
 */
function matchSegment(tokens: Token[], text: string[]): boolean {
  let t = 0;
  let x = 0;
  let starT = -1;
  let starX = 0;
  while (x < text.length) {
    const tok = tokens[t];
    if (tok && tok.kind !== 'star' && matchesToken(tok, text[x])) {
      t++;
      x++;
    } else if (tok?.kind === 'star') {
      starT = t++;
      starX = x;
    } else if (starT >= 0) {
      t = starT + 1;
      x = ++starX;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** The same algorithm one level up: `**` is a star over whole segments. */
function matchSegments(pattern: Segment[], path: string[][]): boolean {
  let p = 0;
  let x = 0;
  let starP = -1;
  let starX = 0;
  while (x < path.length) {
    const seg = pattern[p];
    if (seg !== undefined && seg !== GLOBSTAR && matchSegment(seg, path[x])) {
      p++;
      x++;
    } else if (seg === GLOBSTAR) {
      starP = p++;
      starX = x;
    } else if (starP >= 0) {
      p = starP + 1;
      x = ++starX;
    } else return false;
  }
  while (pattern[p] === GLOBSTAR) p++;
  return p === pattern.length;
}

const splitPath = (path: string): string[][] => path.split('/').map((s) => Array.from(s));

function matchCompiled(glob: CompiledGlob, path: string[][]): boolean {
  return glob.alternatives.some((alt) => matchSegments(alt, path)) !== glob.negated;
}

/** Whether `path` matches `pattern` (false for a pattern that does not compile). */
export function globMatches(pattern: string, path: string): boolean {
  const compiled = compileGlob(pattern);
  return compiled.ok && matchCompiled(compiled.matcher, splitPath(path));
}

/** The first pattern that does not compile, with why; null when all do. */
export function invalidPattern(patterns: readonly string[]): { index: number; reason: GlobReason; message: string } | null {
  for (const [index, p] of patterns.entries()) {
    const compiled = compileGlob(p);
    if (!compiled.ok) return { index, reason: compiled.reason, message: compiled.message };
  }
  return null;
}

/**
 * Whether a path belongs to a source: it matches an include pattern (no include patterns: any path) and no exclude
 * pattern. A stored pattern that no longer compiles (saved before these rules) errs on the safe side: an include
 * then matches nothing and an exclude everything.
 */
export function pathFilter(include: readonly string[], exclude: readonly string[]): PathMatcher {
  const compile = (patterns: readonly string[], fallback: boolean) =>
    patterns.map((p) => {
      const c = compileGlob(p);
      return c.ok ? (path: string[][]) => matchCompiled(c.matcher, path) : () => fallback;
    });
  const inc = compile(include, false);
  const exc = compile(exclude, true);
  return (path) => {
    const split = splitPath(path);
    return (inc.length === 0 || inc.some((m) => m(split))) && !exc.some((m) => m(split));
  };
}
