/**
 * A write from outside (REST, MCP, sync, restore) applied to a live Yjs document block by block. y-prosemirror's
 * `updateYFragment` pairs the old and new top-level blocks from both ends only: a paragraph added above an edited one
 * makes it rewrite the edited paragraph into the new one and insert the old text afresh, which loses what a co-editor
 * types in it meanwhile and the range of any comment on it. Here the blocks are paired first (unchanged ones by a
 * diff of their JSON, changed ones by kind and shared text), only paired blocks are updated in place (the smallest
 * text change, by `updateYFragment`), and the others are inserted or deleted whole.
 */
import { updateYFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import { diffArrays } from 'diff';
import type { Node as PMNode } from 'prosemirror-model';
import * as Y from 'yjs';

type BlockJson = { type: string; content?: BlockJson[]; text?: string };

/** Past this many block edits the diff gives up and the plain fragment update is used. */
const MAX_BLOCK_EDITS = 2000;
/** How alike a changed block's text must be to its new form to be updated in place rather than replaced. */
const MIN_LIKENESS = 0.3;

const emptyMeta = () => ({ mapping: new Map(), isOMark: new Map() });

function textOf(block: BlockJson): string {
  if (block.text) return block.text;
  return (block.content ?? []).map(textOf).join(' ');
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** How alike two texts are: the share of words they have in common (Dice), 1 for equal texts and for two empty ones. */
function likeness(a: string, b: string): number {
  if (a === b) return 1;
  const x = wordsOf(a);
  const y = wordsOf(b);
  if (x.size + y.size === 0) return 1;
  let shared = 0;
  for (const word of x) if (y.has(word)) shared++;
  return (2 * shared) / (x.size + y.size);
}

type Step = { kind: 'keep' | 'update'; y: Y.XmlElement; p: PMNode } | { kind: 'delete'; y: Y.XmlElement } | { kind: 'insert'; p: PMNode };

/** Removed and added blocks between two unchanged ones, paired in order by kind and likeness. */
function pairChanged(removed: { y: Y.XmlElement; json: BlockJson }[], added: { p: PMNode; json: BlockJson }[]): Step[] {
  const steps: Step[] = [];
  let next = 0;
  for (const old of removed) {
    let match = -1;
    for (let j = next; j < added.length; j++) {
      if (added[j].json.type === old.json.type && likeness(textOf(old.json), textOf(added[j].json)) >= MIN_LIKENESS) {
        match = j;
        break;
      }
    }
    if (match < 0) {
      steps.push({ kind: 'delete', y: old.y });
      continue;
    }
    for (; next < match; next++) steps.push({ kind: 'insert', p: added[next].p });
    steps.push({ kind: 'update', y: old.y, p: added[match].p });
    next = match + 1;
  }
  for (; next < added.length; next++) steps.push({ kind: 'insert', p: added[next].p });
  return steps;
}

/** The steps that turn the fragment's blocks into `doc`'s, or null when they cannot be paired (then the plain update runs). */
function blockSteps(fragment: Y.XmlFragment, doc: PMNode): Step[] | null {
  const yBlocks = fragment.toArray();
  const oldJson = (yXmlFragmentToProsemirrorJSON(fragment).content ?? []) as BlockJson[];
  if (yBlocks.length !== oldJson.length || !yBlocks.every((b) => b instanceof Y.XmlElement)) return null;
  const newNodes: PMNode[] = [];
  doc.forEach((node) => {
    newNodes.push(node);
  });
  const newJson = newNodes.map((n) => n.toJSON() as BlockJson);
  const changes = diffArrays(
    oldJson.map((b) => JSON.stringify(b)),
    newJson.map((b) => JSON.stringify(b)),
    { maxEditLength: MAX_BLOCK_EDITS },
  );
  if (!changes) return null;
  const steps: Step[] = [];
  let o = 0;
  let n = 0;
  let removed: { y: Y.XmlElement; json: BlockJson }[] = [];
  let added: { p: PMNode; json: BlockJson }[] = [];
  const flush = () => {
    steps.push(...pairChanged(removed, added));
    removed = [];
    added = [];
  };
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (change.removed) for (let i = 0; i < count; i++, o++) removed.push({ y: yBlocks[o] as Y.XmlElement, json: oldJson[o] });
    else if (change.added) for (let i = 0; i < count; i++, n++) added.push({ p: newNodes[n], json: newJson[n] });
    else {
      flush();
      for (let i = 0; i < count; i++, o++, n++) steps.push({ kind: 'keep', y: yBlocks[o] as Y.XmlElement, p: newNodes[n] });
    }
  }
  flush();
  return steps;
}

/** Turns the fragment into `doc` in place, block by block (see above); the caller wraps it in a transaction. */
export function updateBlocks(ydoc: Y.Doc, fragment: Y.XmlFragment, doc: PMNode): void {
  const steps = blockSteps(fragment, doc);
  if (!steps) {
    updateYFragment(ydoc, fragment, doc, emptyMeta());
    return;
  }
  let index = 0;
  for (const step of steps) {
    if (step.kind === 'delete') {
      fragment.delete(index, 1);
      continue;
    }
    if (step.kind === 'insert') {
      const block = new Y.XmlElement(step.p.type.name);
      fragment.insert(index, [block]);
      updateYFragment(ydoc, block, step.p, emptyMeta());
    } else if (step.kind === 'update') updateYFragment(ydoc, step.y, step.p, emptyMeta()); // paired by kind: same node name
    index++;
  }
}
