import { Button, Loader, Text, VisuallyHidden } from '@mantine/core';
import { Fragment, type ReactNode, useState } from 'react';
import type { Block, BlockDiff, Part, Row, Token } from './block-diff';
import classes from './history.module.css';

export type DiffMode = 'inline' | 'split';

/** Rows shown at first; a page rewritten end to end shows the rest on request (the DOM stays small). */
const FIRST_ROWS = 300;

/** A run of tokens as text: words with the same link joined into one span (its address on hover), mentions as chips. */
function Tokens({ tokens }: { tokens: Token[] }) {
  const out: ReactNode[] = [];
  let run = '';
  let href: string | undefined;
  const flush = () => {
    if (!run) return;
    out.push(
      href ? (
        <span key={out.length} className={classes.link} title={href}>
          {run}
        </span>
      ) : (
        run
      ),
    );
    run = '';
  };
  for (const t of tokens) {
    if (t.kind === 'text' || t.kind === 'break') {
      if (t.href !== href) flush();
      href = t.href;
      run += t.text;
      continue;
    }
    flush();
    href = undefined;
    if (t.kind === 'cell')
      out.push(
        <span key={out.length} className={classes.cell}>
          {' │ '}
          <VisuallyHidden>next cell: </VisuallyHidden>
        </span>,
      );
    else
      out.push(
        <span key={out.length} className={t.kind === 'page' ? `${classes.mention} ${classes.pageMention}` : classes.mention}>
          {t.text}
        </span>,
      );
  }
  flush();
  return <>{out}</>;
}

function Parts({ parts, show }: { parts: Part[]; show: Array<Part['op']> }) {
  return (
    <>
      {parts
        .filter((p) => show.includes(p.op))
        .map((p, i) => {
          const key = `${i}${p.op}`;
          if (p.op === 'add')
            return (
              <ins key={key} className={classes.ins}>
                <VisuallyHidden>[added: </VisuallyHidden>
                <Tokens tokens={p.tokens} />
                <VisuallyHidden>]</VisuallyHidden>
              </ins>
            );
          if (p.op === 'del')
            return (
              <del key={key} className={classes.del}>
                <VisuallyHidden>[removed: </VisuallyHidden>
                <Tokens tokens={p.tokens} />
                <VisuallyHidden>]</VisuallyHidden>
              </del>
            );
          return (
            <Fragment key={key}>
              <Tokens tokens={p.tokens} />
            </Fragment>
          );
        })}
    </>
  );
}

/** A block's frame: its kind's look (heading size, list marker and depth, code, table row, quote). */
function BlockFrame({ block, children }: { block: Block; children: ReactNode }) {
  const empty = block.tokens.length === 0 && block.kind !== 'rule';
  const body =
    block.kind === 'rule' ? <span className={classes.dim}>── horizontal line ──</span> : empty ? <span className={classes.dim}>(empty line)</span> : children;
  const cls = [classes.block, classes[`kind_${block.kind}`], block.quote ? classes.quote : '', block.header ? classes.headerRow : ''].filter(Boolean).join(' ');
  return (
    <div className={cls} data-level={block.level} style={{ paddingInlineStart: `${block.depth * 1.25}em` }}>
      {block.marker && (
        <span className={classes.marker} aria-hidden={block.marker === '•'}>
          {block.marker}{' '}
        </span>
      )}
      {body}
    </div>
  );
}

const LABEL = { add: 'Added', del: 'Removed', change: 'Changed' } as const;

function Badge({ op }: { op: 'add' | 'del' | 'change' }) {
  return <span className={`${classes.badge} ${classes[`badge_${op}`]}`}>{LABEL[op]}</span>;
}

function InlineRow({ row }: { row: Exclude<Row, { op: 'skip' }> }) {
  if (row.op === 'same')
    return (
      <div className={classes.row}>
        <span className={classes.gutter} />
        <BlockFrame block={row.block}>
          <Tokens tokens={row.block.tokens} />
        </BlockFrame>
      </div>
    );
  if (row.op === 'change')
    return (
      <div className={`${classes.row} ${classes.changed}`}>
        <span className={classes.gutter}>
          <Badge op="change" />
        </span>
        <BlockFrame block={row.after}>
          <Parts parts={row.parts} show={['same', 'add', 'del']} />
        </BlockFrame>
      </div>
    );
  const Tag = row.op === 'add' ? 'ins' : 'del';
  return (
    <div className={`${classes.row} ${row.op === 'add' ? classes.added : classes.removed}`}>
      <span className={classes.gutter}>
        <Badge op={row.op} />
      </span>
      <Tag className={row.op === 'del' ? `${classes.wholeBlock} ${classes.struck}` : classes.wholeBlock}>
        <BlockFrame block={row.block}>
          <Tokens tokens={row.block.tokens} />
        </BlockFrame>
      </Tag>
    </div>
  );
}

function SplitRow({ row }: { row: Exclude<Row, { op: 'skip' }> }) {
  const empty = <div className={`${classes.side} ${classes.blank} ${row.op === 'add' ? classes.left : ''}`} aria-hidden="true" />;
  if (row.op === 'same')
    return (
      <>
        <div className={`${classes.side} ${classes.left}`}>
          <BlockFrame block={row.block}>
            <Tokens tokens={row.block.tokens} />
          </BlockFrame>
        </div>
        <div className={classes.side}>
          <BlockFrame block={row.block}>
            <Tokens tokens={row.block.tokens} />
          </BlockFrame>
        </div>
      </>
    );
  if (row.op === 'change')
    return (
      <>
        <div className={`${classes.side} ${classes.left} ${classes.changed}`}>
          <Badge op="change" />
          <BlockFrame block={row.before}>
            <Parts parts={row.parts} show={['same', 'del']} />
          </BlockFrame>
        </div>
        <div className={`${classes.side} ${classes.changed}`}>
          <Badge op="change" />
          <BlockFrame block={row.after}>
            <Parts parts={row.parts} show={['same', 'add']} />
          </BlockFrame>
        </div>
      </>
    );
  const side = (
    <div className={`${classes.side} ${row.op === 'add' ? classes.added : `${classes.removed} ${classes.left}`}`}>
      <Badge op={row.op} />
      {row.op === 'add' ? (
        <ins className={classes.wholeBlock}>
          <BlockFrame block={row.block}>
            <Tokens tokens={row.block.tokens} />
          </BlockFrame>
        </ins>
      ) : (
        <del className={`${classes.wholeBlock} ${classes.struck}`}>
          <BlockFrame block={row.block}>
            <Tokens tokens={row.block.tokens} />
          </BlockFrame>
        </del>
      )}
    </div>
  );
  return row.op === 'add' ? (
    <>
      {empty}
      {side}
    </>
  ) : (
    <>
      {side}
      {empty}
    </>
  );
}

/** "12 unchanged blocks": a button that shows them in place. */
function Skipped({ blocks, mode }: { blocks: Block[]; mode: DiffMode }) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <div className={mode === 'split' ? classes.skipSplit : undefined}>
        <button type="button" className={classes.skip} aria-expanded={false} onClick={() => setOpen(true)}>
          {blocks.length === 1 ? '1 unchanged block' : `${blocks.length.toLocaleString()} unchanged blocks`}
        </button>
      </div>
    );
  return (
    <>
      {blocks.map((block, i) =>
        mode === 'split' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of blocks, never reordered
          <SplitRow key={i} row={{ op: 'same', block }} />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of blocks, never reordered
          <InlineRow key={i} row={{ op: 'same', block }} />
        ),
      )}
    </>
  );
}

function TitleChange({ before, after, mode }: { before: string; after: string; mode: DiffMode }) {
  if (mode === 'split')
    return (
      <>
        <div className={`${classes.side} ${classes.left} ${classes.changed}`}>
          <span className={classes.badge}>Title</span>
          <del className={classes.del}>{before || 'Untitled'}</del>
        </div>
        <div className={`${classes.side} ${classes.changed}`}>
          <span className={classes.badge}>Title</span>
          <ins className={classes.ins}>{after || 'Untitled'}</ins>
        </div>
      </>
    );
  return (
    <div className={`${classes.row} ${classes.changed}`}>
      <span className={classes.gutter}>
        <span className={classes.badge}>Title</span>
      </span>
      <div className={classes.block}>
        <del className={classes.del}>
          <VisuallyHidden>[removed: </VisuallyHidden>
          {before || 'Untitled'}
          <VisuallyHidden>]</VisuallyHidden>
        </del>{' '}
        →{' '}
        <ins className={classes.ins}>
          <VisuallyHidden>[added: </VisuallyHidden>
          {after || 'Untitled'}
          <VisuallyHidden>]</VisuallyHidden>
        </ins>
      </div>
    </div>
  );
}

/**
 * Two versions compared block by block: inline (one column, changes marked in place) or side by side (older left).
 * Colour is never the only signal: blocks carry an "Added" / "Removed" / "Changed" label, added words are underlined
 * and removed ones struck through (`<ins>` / `<del>`, with "[added: …]" for screen readers), removed blocks hatched.
 */
export function VersionDiff(props: {
  diff: BlockDiff | null;
  mode: DiffMode;
  beforeLabel: string;
  afterLabel: string;
  titles: [string, string];
  /** The worker's time for this diff (a data attribute for measuring, shown to nobody). */
  ms?: number | null;
}) {
  const { diff, mode, beforeLabel, afterLabel, titles, ms } = props;
  const [limit, setLimit] = useState(FIRST_ROWS);
  if (!diff)
    return (
      <div className={classes.computing}>
        <Loader size="sm" aria-hidden="true" />
        <Text size="sm" c="dimmed" role="status">
          Comparing the versions…
        </Text>
      </div>
    );
  const titleChanged = titles[0] !== titles[1];
  const unchanged = diff.added + diff.removed + diff.changed === 0;
  const summary = unchanged
    ? titleChanged
      ? 'Only the title changed.'
      : 'No differences: the two versions are the same.'
    : [diff.changed && `${diff.changed} changed`, diff.added && `${diff.added} added`, diff.removed && `${diff.removed} removed`]
        .filter(Boolean)
        .join(', ')
        .replace(/^/, 'Blocks: ');
  const rows = diff.rows.slice(0, limit);
  return (
    <div className={classes.wrap}>
      <Text size="sm" c="dimmed" role="status" data-testid="diff-summary" data-diff-ms={ms == null ? undefined : Math.round(ms)}>
        {summary}
      </Text>
      {(!unchanged || titleChanged) && (
        <section aria-label="Differences" className={mode === 'split' ? classes.split : classes.inline}>
          {mode === 'split' && (
            <>
              <div className={`${classes.colHead} ${classes.left}`}>{beforeLabel}</div>
              <div className={classes.colHead}>{afterLabel}</div>
            </>
          )}
          {titleChanged && <TitleChange before={titles[0]} after={titles[1]} mode={mode} />}
          {rows.map((row, i) => {
            // Rows are fixed for a given pair of versions, so their index is a stable key.
            const key = `${i}${row.op}`;
            if (row.op === 'skip') return <Skipped key={key} blocks={row.blocks} mode={mode} />;
            return mode === 'split' ? <SplitRow key={key} row={row} /> : <InlineRow key={key} row={row} />;
          })}
        </section>
      )}
      {diff.rows.length > limit && (
        <Button variant="default" size="xs" onClick={() => setLimit((l) => l + FIRST_ROWS)}>
          Show more changes ({(diff.rows.length - limit).toLocaleString()} rows left)
        </Button>
      )}
    </div>
  );
}
