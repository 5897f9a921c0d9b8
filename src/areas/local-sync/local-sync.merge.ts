import { diffIndices } from 'node-diff3';

export interface Hunk {
  kind: 'local' | 'service' | 'both' | 'clash';
  baseStart: number;
  baseLines: string[];
  localStart: number;
  localLines: string[];
  serviceStart: number;
  serviceLines: string[];
}

/** Lines of a text, each with its line ending, so joining them gives the text back exactly. */
export const splitLines = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
export const bare = (lines: string[]) => lines.map((l) => l.replace(/\r?\n$/, ''));

interface Change {
  oStart: number;
  oEnd: number;
  start: number;
  end: number;
}

const changes = (o: string[], x: string[]): Change[] =>
  diffIndices(o, x).map((d) => ({ oStart: d.buffer1[0], oEnd: d.buffer1[0] + d.buffer1[1], start: d.buffer2[0], end: d.buffer2[0] + d.buffer2[1] }));

/**
 * A line-level three-way view (diff3) of local and service against their base: the changed regions in order —
 * `local` (only the connector changed them), `service` (only the service), `both` (the same change on both
 * sides) or `clash` — and, when nothing clashes, the merged text. Changes of the two sides that overlap or touch
 * in the base form one region, as in diff3.
 */
export function threeWay(base: string, local: string, service: string): { hunks: Hunk[]; clashes: number; merged: string | null } {
  const o = splitLines(base);
  const sides = { a: splitLines(local), b: splitLines(service) };
  const all = [...changes(o, sides.a).map((c) => ({ ...c, side: 'a' as const })), ...changes(o, sides.b).map((c) => ({ ...c, side: 'b' as const }))].sort(
    (x, y) => x.oStart - y.oStart || (x.side === y.side ? 0 : x.side === 'a' ? -1 : 1),
  );
  const hunks: Hunk[] = [];
  const out: string[] = [];
  const delta = { a: 0, b: 0 };
  let done = 0; // base lines consumed
  let i = 0;
  while (i < all.length) {
    const region = [all[i++]];
    let oStart = region[0].oStart;
    let oEnd = region[0].oEnd;
    while (i < all.length && all[i].oStart <= oEnd) {
      oEnd = Math.max(oEnd, all[i].oEnd);
      oStart = Math.min(oStart, all[i].oStart);
      region.push(all[i++]);
    }
    out.push(...o.slice(done, oStart));
    const span = (side: 'a' | 'b') => {
      const mine = region.filter((c) => c.side === side);
      if (!mine.length) return { changed: false, start: oStart + delta[side], end: oEnd + delta[side] };
      const first = mine[0];
      const last = mine[mine.length - 1];
      return { changed: true, start: first.start - (first.oStart - oStart), end: last.end + (oEnd - last.oEnd) };
    };
    const sa = span('a');
    const sb = span('b');
    const aLines = sides.a.slice(sa.start, sa.end);
    const bLines = sides.b.slice(sb.start, sb.end);
    const same = aLines.length === bLines.length && aLines.every((l, k) => l === bLines[k]);
    const kind: Hunk['kind'] = !sb.changed ? 'local' : !sa.changed ? 'service' : same ? 'both' : 'clash';
    hunks.push({
      kind,
      baseStart: oStart + 1,
      baseLines: bare(o.slice(oStart, oEnd)),
      localStart: sa.start + 1,
      localLines: bare(aLines),
      serviceStart: sb.start + 1,
      serviceLines: bare(bLines),
    });
    if (kind !== 'clash') out.push(...(kind === 'service' ? bLines : aLines));
    delta.a += sa.end - sa.start - (oEnd - oStart);
    delta.b += sb.end - sb.start - (oEnd - oStart);
    done = oEnd;
  }
  out.push(...o.slice(done));
  const clashes = hunks.filter((h) => h.kind === 'clash').length;
  return { hunks, clashes, merged: clashes ? null : out.join('') };
}
