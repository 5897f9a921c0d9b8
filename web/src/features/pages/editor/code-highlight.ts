import { Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import type { createLowlight } from 'lowlight';

/**
 * Syntax colours for the shared `codeBlock` node, as decorations only: no node or attribute is added, so the schema
 * stays exactly the server's. Only code blocks a transaction touched are re-highlighted (a 1 MB page stays fast).
 * The grammars load on the first code block any editor meets (`code-grammars.ts`); until they are here code is plain,
 * and then every open editor is coloured at once.
 */
let lowlight: ReturnType<typeof createLowlight> | null = null;
let loading: Promise<void> | null = null;
const views = new Set<EditorView>();
const GRAMMARS_LOADED = 'grammars-loaded';

function loadGrammars() {
  if (loading) return;
  loading = import('./code-grammars').then(
    (m) => {
      lowlight = m.lowlight;
      for (const view of views) view.dispatch(view.state.tr.setMeta(key, GRAMMARS_LOADED));
    },
    () => {
      loading = null; // offline or a failed chunk: the next code block tries again
    },
  );
}
/** Guessing a language runs every grammar: only for blocks small enough to guess quickly. */
const AUTO_DETECT_MAX = 4000;

interface Span {
  from: number;
  to: number;
  className: string;
}

type HastNode = { type: string; value?: string; properties?: { className?: string[] }; children?: HastNode[] };

function spansOf(tree: HastNode, out: Span[] = [], offset = { at: 0 }, classes: string[] = []): Span[] {
  for (const child of tree.children ?? []) {
    if (child.type === 'text') {
      const len = child.value?.length ?? 0;
      if (classes.length && len) out.push({ from: offset.at, to: offset.at + len, className: classes.join(' ') });
      offset.at += len;
    } else if (child.type === 'element') spansOf(child, out, offset, [...classes, ...(child.properties?.className ?? [])]);
  }
  return out;
}

const cache = new WeakMap<PMNode, Span[]>();

function highlight(node: PMNode): Span[] {
  if (!lowlight) {
    loadGrammars();
    return [];
  }
  const hit = cache.get(node);
  if (hit) return hit;
  const text = node.textContent;
  const language = typeof node.attrs.language === 'string' ? node.attrs.language : null;
  let spans: Span[] = [];
  try {
    if (language && lowlight.registered(language)) spans = spansOf(lowlight.highlight(language, text) as HastNode);
    else if (!language && text.length <= AUTO_DETECT_MAX) spans = spansOf(lowlight.highlightAuto(text) as HastNode);
  } catch {
    spans = []; // an odd grammar failure leaves the block plain, never breaks typing
  }
  cache.set(node, spans);
  return spans;
}

function decorationsOf(node: PMNode, pos: number): Decoration[] {
  return highlight(node).map((s) => Decoration.inline(pos + 1 + s.from, pos + 1 + s.to, { class: s.className }));
}

function codeBlocksIn(doc: PMNode, from: number, to: number, visit: (node: PMNode, pos: number) => void) {
  doc.nodesBetween(Math.max(0, from), Math.min(doc.content.size, to), (node, pos) => {
    if (node.type.name === 'codeBlock') {
      visit(node, pos);
      return false;
    }
    return !node.isTextblock;
  });
}

/** Ranges of the new document a transaction changed. */
function changedRanges(tr: Transaction): [number, number][] {
  const out: [number, number][] = [];
  tr.mapping.maps.forEach((map, i) => {
    const rest = tr.mapping.slice(i + 1);
    map.forEach((_oldStart, _oldEnd, start, end) => {
      out.push([rest.map(start, -1), rest.map(end, 1)]);
    });
  });
  return out;
}

const key = new PluginKey<DecorationSet>('codeHighlight');

export const CodeHighlight = Extension.create({
  name: 'codeHighlight',
  addProseMirrorPlugins() {
    const everything = (doc: PMNode) => {
      const decos: Decoration[] = [];
      codeBlocksIn(doc, 0, doc.content.size, (node, pos) => decos.push(...decorationsOf(node, pos)));
      return DecorationSet.create(doc, decos);
    };
    return [
      new Plugin<DecorationSet>({
        key,
        view(view) {
          views.add(view);
          return { destroy: () => views.delete(view) };
        },
        state: {
          init(_config, state) {
            return everything(state.doc);
          },
          apply(tr, old) {
            if (tr.getMeta(key) === GRAMMARS_LOADED) return everything(tr.doc);
            let set = old.map(tr.mapping, tr.doc);
            if (!tr.docChanged) return set;
            for (const [from, to] of changedRanges(tr)) {
              set = set.remove(set.find(from, to)); // a block that stopped being code loses its colours
              codeBlocksIn(tr.doc, from, to, (node, pos) => {
                set = set.remove(set.find(pos, pos + node.nodeSize)).add(tr.doc, decorationsOf(node, pos));
              });
            }
            return set;
          },
        },
        props: {
          decorations(state) {
            return key.getState(state);
          },
        },
      }),
    ];
  },
});
