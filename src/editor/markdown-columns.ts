import type { StateBlock } from 'markdown-it';
import { MAX_COLUMNS, MIN_COLUMNS } from './columns.js';

/**
 * markdown-it rule for columns (columns.ts), a container directive of container directives:
 *
 *     ::::columns
 *     :::column
 *     Left
 *     :::
 *     :::column
 *     Right
 *     :::
 *     ::::
 *
 * Inside, `:::word` … `:::` fences (a callout, a column) and `::::columns` … `::::` (columns in a column) are counted,
 * so only the `:::column` and `::::` lines at the top level delimit the columns. Markdown always makes a valid document:
 * a list of fewer than two columns or more than three, or with blocks between its columns, is read as its blocks one
 * after another (nothing lost); an unclosed column or list ends where its container does.
 */

const lineOf = (state: StateBlock, line: number) => state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line]);

const COLUMNS_OPEN = /^::::\s*columns\s*$/;
const COLUMNS_CLOSE = /^::::\s*$/;
const COLUMN_OPEN = /^:::\s*column\s*$/;
const FENCE_OPEN = /^:::\s*[A-Za-z]+\s*\S*\s*$/;
const FENCE_CLOSE = /^:::\s*$/;

interface Part {
  column: boolean;
  start: number;
  end: number;
}

/** The parts of a column list's body, lines `from` to before `to`, and the line that closes the list (or `to`). */
function partsOf(state: StateBlock, from: number, to: number): { parts: Part[]; close: number; closed: boolean } {
  const parts: Part[] = [];
  let depth = 0;
  let stray = from;
  let column: Part | null = null;
  const keepStray = (end: number) => {
    if (end > stray) parts.push({ column: false, start: stray, end });
  };
  let line = from;
  for (; line < to; line++) {
    if (state.sCount[line] < state.blkIndent && !state.isEmpty(line)) break;
    const text = lineOf(state, line);
    if (depth === 0 && COLUMNS_CLOSE.test(text)) break;
    if (depth === 0 && COLUMN_OPEN.test(text)) {
      keepStray(line);
      column = { column: true, start: line + 1, end: to };
      depth = 1;
    } else if (COLUMNS_OPEN.test(text) || FENCE_OPEN.test(text)) depth++;
    else if ((COLUMNS_CLOSE.test(text) || FENCE_CLOSE.test(text)) && depth > 0 && --depth === 0 && column) {
      column.end = line;
      parts.push(column);
      column = null;
      stray = line + 1;
    }
  }
  if (column) {
    column.end = line;
    parts.push(column);
  } else keepStray(line);
  return { parts, close: line, closed: line < to && COLUMNS_CLOSE.test(lineOf(state, line)) };
}

const blank = (state: StateBlock, part: Part) => {
  for (let line = part.start; line < part.end; line++) if (!state.isEmpty(line)) return false;
  return true;
};

export function columnsBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  if (!COLUMNS_OPEN.test(lineOf(state, startLine))) return false;
  if (silent) return true;
  const { parts, close, closed } = partsOf(state, startLine + 1, endLine);
  const columns = parts.filter((p) => p.column);
  const wellFormed = columns.length >= MIN_COLUMNS && columns.length <= MAX_COLUMNS && parts.every((p) => p.column || blank(state, p));
  const oldParent = state.parentType;
  const oldMax = state.lineMax;
  state.parentType = 'container' as never;
  if (wellFormed) state.push('columns_open', 'div', 1).map = [startLine, close];
  for (const part of wellFormed ? columns : parts) {
    state.lineMax = part.end;
    if (wellFormed) state.push('column_open', 'div', 1).map = [part.start, part.end];
    state.md.block.tokenize(state, part.start, part.end);
    if (wellFormed) state.push('column_close', 'div', -1);
  }
  if (wellFormed) state.push('columns_close', 'div', -1);
  state.parentType = oldParent;
  state.lineMax = oldMax;
  state.line = closed ? close + 1 : close;
  return true;
}

export const columnTokens = {
  columns: { block: 'columns' },
  column: { block: 'column' },
};
