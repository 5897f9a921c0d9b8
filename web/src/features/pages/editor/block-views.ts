import { checkEmbedUrl, EMBED_ALLOW, EMBED_REFERRER_POLICY, EMBED_SANDBOX } from '@editor/embeds';
import { type AnyExtension, type Editor, Extension, InputRule, type NodeViewRendererProps, type Node as TiptapNode } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { NodeSelection, Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { withColumnsKeys } from './columns-view';
import { dateView, OPEN_DATE_EVENT } from './date-view';
import { fileView, mediaView } from './file-views';
import { footnoteNumbers, footnoteView, OPEN_FOOTNOTE_EVENT } from './footnote-view';
import { imageView } from './image-view';
import { linkCardView } from './link-card-view';
import { liveBlockView } from './live-block-views';
import type { UploadTarget } from './uploads';

/**
 * How the editor (and the read-only share view) shows the blocks of `src/editor/blocks.ts`, without adding to the
 * schema: math through KaTeX and diagrams through Mermaid, each loaded on first use (their own chunks, never in the
 * shell); toggles open and close per viewer (kept in this browser, never in the page); callouts switch type by a
 * click on their badge; an embed shows a placeholder (its provider and link) until it comes near the screen, then its
 * frame. Input rules: `$$ ` makes a math block, `:::info ` (or note/success/warning/danger) a callout.
 */

type Katex = typeof import('katex').default;
let katex: Promise<Katex> | null = null;
const loadKatex = () => {
  katex ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([m]) => m.default);
  return katex;
};

function renderMath(target: HTMLElement, latex: string, displayMode: boolean) {
  if (!latex.trim()) {
    target.textContent = displayMode ? 'Empty formula: click to write TeX' : 'TeX';
    target.classList.add('kb-math-empty');
    return;
  }
  target.classList.remove('kb-math-empty');
  target.textContent = latex;
  void loadKatex().then(
    (k) => k.render(latex, target, { displayMode, throwOnError: false, trust: false, maxSize: 50, maxExpand: 1000, output: 'htmlAndMathml' }),
    () => {},
  );
}

/** A math node: the formula, and when selected in an editable editor, its TeX in a field with a live preview. */
function mathView(displayMode: boolean) {
  return ({ node, editor, getPos }: NodeViewRendererProps) => {
    const dom = document.createElement(displayMode ? 'div' : 'span');
    dom.className = displayMode ? 'kb-math kb-math-block' : 'kb-math kb-math-inline';
    dom.setAttribute('data-math', displayMode ? 'block' : 'inline');
    const preview = document.createElement(displayMode ? 'div' : 'span');
    preview.className = 'kb-math-preview';
    dom.append(preview);
    let current = node;
    let field: HTMLTextAreaElement | HTMLInputElement | null = null;
    renderMath(preview, node.attrs.latex, displayMode);
    const commit = (latex: string) => {
      const pos = typeof getPos === 'function' ? getPos() : undefined;
      if (pos === undefined || latex === current.attrs.latex) return;
      editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, latex }));
    };
    const open = () => {
      if (field || !editor.isEditable) return;
      field = document.createElement(displayMode ? 'textarea' : 'input');
      field.className = 'kb-math-source';
      field.setAttribute('aria-label', 'TeX source');
      field.setAttribute('spellcheck', 'false');
      field.value = current.attrs.latex;
      field.addEventListener('input', () => renderMath(preview, field!.value, displayMode));
      field.addEventListener('keydown', (e) => {
        const ev = e as KeyboardEvent;
        if (ev.key === 'Escape' || (ev.key === 'Enter' && (!displayMode || ev.metaKey || ev.ctrlKey))) {
          ev.preventDefault();
          commit(field!.value);
          editor.view.focus();
        }
      });
      field.addEventListener('blur', () => commit(field?.value ?? current.attrs.latex));
      dom.append(field);
      requestAnimationFrame(() => field?.focus());
    };
    const close = () => {
      field?.remove();
      field = null;
    };
    dom.addEventListener('click', () => open());
    return {
      dom,
      update(updated: PMNode) {
        if (updated.type !== current.type) return false;
        current = updated;
        if (!field || document.activeElement !== field) renderMath(preview, updated.attrs.latex, displayMode);
        return true;
      },
      selectNode() {
        dom.classList.add('ProseMirror-selectednode');
        open();
      },
      deselectNode() {
        dom.classList.remove('ProseMirror-selectednode');
        if (field) commit(field.value);
        close();
      },
      stopEvent: (event: Event) => !!field && event.target === field,
      ignoreMutation: () => true,
      destroy: close,
    };
  };
}

const CALLOUT_TYPES = ['info', 'note', 'success', 'warning', 'danger'] as const;
const CALLOUT_ICONS: Record<string, string> = { info: 'ℹ️', note: '📝', success: '✅', warning: '⚠️', danger: '⛔' };

function calloutView({ node, editor, getPos }: NodeViewRendererProps) {
  const dom = document.createElement('aside');
  const badge = document.createElement('button');
  badge.type = 'button';
  badge.contentEditable = 'false';
  badge.className = 'kb-callout-icon';
  const content = document.createElement('div');
  content.className = 'kb-callout-content';
  dom.append(badge, content);
  let current = node;
  const paint = () => {
    const { type, icon } = current.attrs;
    dom.className = `callout callout-${type}`;
    dom.setAttribute('data-callout', type);
    badge.textContent = icon || CALLOUT_ICONS[type] || 'ℹ️';
    badge.setAttribute('aria-label', `Callout type: ${type}${editor.isEditable ? ' (click to change)' : ''}`);
    badge.disabled = !editor.isEditable;
  };
  paint();
  badge.addEventListener('mousedown', (e) => e.preventDefault());
  badge.addEventListener('click', () => {
    const pos = typeof getPos === 'function' ? getPos() : undefined;
    if (pos === undefined || !editor.isEditable) return;
    const next = CALLOUT_TYPES[(CALLOUT_TYPES.indexOf(current.attrs.type) + 1) % CALLOUT_TYPES.length];
    editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, type: next }));
  });
  return {
    dom,
    contentDOM: content,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      current = updated;
      paint();
      return true;
    },
    ignoreMutation: (m: { target: globalThis.Node }) => m.target === badge || badge.contains(m.target),
  };
}

// ---------- Embeds: the frame only once the block comes near the screen ----------

function sourceLink(src: string, text: string) {
  const a = document.createElement('a');
  a.href = src;
  a.textContent = text;
  a.target = '_blank';
  a.rel = 'noopener noreferrer nofollow';
  return a;
}

/**
 * An embed: its frame (the address the shared allow-list builds, never the link as typed) and under it the link to
 * the source. Until the block comes within a screen's height of the view, a placeholder stands in for the frame with
 * the provider's name and a link, so a page of many embeds loads the frames one reaches (`loading="lazy"` too).
 */
function embedView({ node }: NodeViewRendererProps) {
  const dom = document.createElement('figure');
  dom.className = 'kb-embed';
  const box = document.createElement('div');
  box.className = 'kb-embed-frame';
  const caption = document.createElement('figcaption');
  caption.className = 'kb-embed-caption';
  dom.append(box, caption);
  let current = node;
  let observer: IntersectionObserver | null = null;
  const paint = () => {
    observer?.disconnect();
    observer = null;
    const src = String(current.attrs.src ?? '');
    const check = checkEmbedUrl(src);
    const name = check.ok ? check.provider.name : 'Embed';
    dom.setAttribute('data-embed', check.ok ? check.provider.id : '');
    caption.replaceChildren(`${name}: `, sourceLink(src, src));
    const placeholder = document.createElement('div');
    placeholder.className = 'kb-embed-placeholder';
    const title = document.createElement('strong');
    title.textContent = name;
    placeholder.append(title);
    box.replaceChildren(placeholder);
    if (!check.ok) {
      // Stored under other rules: the link stays, no frame.
      placeholder.append(document.createTextNode('This link cannot be shown here.'));
      box.style.aspectRatio = '';
      return;
    }
    placeholder.append(sourceLink(src, `Open in ${name} ↗`));
    const [width, height] = check.provider.size;
    box.style.aspectRatio = `${width} / ${height}`;
    const show = () => {
      const frame = document.createElement('iframe');
      frame.src = check.frameUrl;
      frame.setAttribute('loading', 'lazy');
      frame.setAttribute('sandbox', EMBED_SANDBOX);
      frame.setAttribute('allow', EMBED_ALLOW);
      frame.setAttribute('referrerpolicy', EMBED_REFERRER_POLICY);
      frame.title = `${name} embed`;
      box.replaceChildren(frame);
    };
    if (typeof IntersectionObserver === 'undefined') return show();
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer?.disconnect();
        observer = null;
        show();
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(dom);
  };
  paint();
  return {
    dom,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      const changed = updated.attrs.src !== current.attrs.src;
      current = updated;
      if (changed) paint();
      return true;
    },
    ignoreMutation: () => true,
    destroy: () => observer?.disconnect(),
  };
}

/** Toggles remembered per viewer, in this browser: by page and the toggle's place among the page's toggles. */
const TOGGLES_KEY = 'kb.toggles';
function toggleKey(editor: NodeViewRendererProps['editor'], pos: number): string {
  let index = 0;
  editor.state.doc.nodesBetween(0, pos, (n, p) => {
    if (n.type.name === 'details' && p < pos) index++;
  });
  return `${location.pathname}#${index}`;
}
function openToggles(): Record<string, boolean> {
  try {
    return JSON.parse(localStorage.getItem(TOGGLES_KEY) ?? '{}');
  } catch {
    return {};
  }
}

function detailsView({ node, editor, getPos }: NodeViewRendererProps) {
  const dom = document.createElement('div');
  dom.className = 'kb-toggle';
  dom.setAttribute('data-type', 'details');
  const button = document.createElement('button');
  button.type = 'button';
  button.contentEditable = 'false';
  button.className = 'kb-toggle-button';
  const content = document.createElement('div');
  content.className = 'kb-toggle-body';
  dom.append(button, content);
  const pos = typeof getPos === 'function' ? getPos() : undefined;
  const key = pos === undefined ? null : toggleKey(editor, pos);
  let open = key ? openToggles()[key] === true : false;
  const paint = () => {
    dom.classList.toggle('is-open', open);
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Close toggle' : 'Open toggle');
  };
  paint();
  button.addEventListener('mousedown', (e) => e.preventDefault());
  button.addEventListener('click', () => {
    open = !open;
    paint();
    if (!key) return;
    const all = openToggles();
    if (open) all[key] = true;
    else delete all[key];
    try {
      localStorage.setItem(TOGGLES_KEY, JSON.stringify(all));
    } catch {
      // storage full or off: the toggle still works for this visit
    }
  });
  return {
    dom,
    contentDOM: content,
    update: (updated: PMNode) => updated.type === node.type,
    ignoreMutation: (m: { target: globalThis.Node }) => m.target === button || button.contains(m.target) || m.target === dom,
  };
}

// ---------- Mermaid: a diagram under each ```mermaid code block, rendered when it comes into view ----------

type Mermaid = typeof import('mermaid').default;
let mermaid: Promise<Mermaid> | null = null;
const loadMermaid = () => {
  mermaid ??= import('mermaid').then((m) => {
    const dark = document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark';
    m.default.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default', htmlLabels: false, maxTextSize: 50_000 });
    return m.default;
  });
  return mermaid;
};
let diagramCount = 0;
const rendered = new Map<string, string>();

function diagramWidget(source: string) {
  return () => {
    const box = document.createElement('div');
    box.className = 'kb-diagram';
    box.contentEditable = 'false';
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', 'Diagram');
    const cached = rendered.get(source);
    if (cached) {
      box.innerHTML = cached;
      return box;
    }
    box.textContent = 'Diagram';
    const draw = () =>
      void loadMermaid()
        .then((m) => m.render(`kb-diagram-${++diagramCount}`, source))
        .then(
          ({ svg }) => {
            rendered.set(source, svg);
            box.innerHTML = svg;
          },
          (err: unknown) => {
            box.textContent = `Diagram error: ${err instanceof Error ? err.message.split('\n')[0] : 'cannot draw this diagram'}`;
            box.classList.add('kb-diagram-error');
          },
        );
    if (typeof IntersectionObserver === 'undefined') draw();
    else {
      const io = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          draw();
        }
      });
      io.observe(box);
    }
    return box;
  };
}

function diagramDecorations(doc: PMNode): DecorationSet {
  const decos: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name === 'codeBlock' && node.attrs.language === 'mermaid' && node.textContent.trim()) {
      const source = node.textContent;
      decos.push(Decoration.widget(pos + node.nodeSize, diagramWidget(source), { side: -1, key: `mermaid:${source}` }));
    }
    return node.isBlock && !node.isTextblock;
  });
  return DecorationSet.create(doc, decos);
}

const diagramsKey = new PluginKey<DecorationSet>('kbDiagrams');

/** Enter on a selected `name` node opens its field (`event`; a click does too). */
function openOnEnter(name: string, event: string) {
  return {
    Enter: ({ editor }: { editor: Editor }) => {
      const { selection } = editor.state;
      if (!editor.isEditable || !(selection instanceof NodeSelection) || selection.node.type.name !== name) return false;
      (editor as unknown as { emit(event: string): void }).emit(event);
      return true;
    },
  };
}

/**
 * A shared schema extension with its view for the browser (the node, its attributes and HTML unchanged). With the
 * page being edited (`target`), link cards ask the server for their page's title and icon and the subpages block lists
 * the page's children; without (the public share view) they show what the page keeps.
 */
export function withBlockView(ext: AnyExtension, target: UploadTarget | null = null): AnyExtension {
  const node = ext as TiptapNode;
  const live = liveBlockView(ext.name, target);
  if (live) return node.extend({ addNodeView: () => live });
  switch (ext.name) {
    case 'mathInline':
      return node.extend({ addNodeView: () => mathView(false) });
    case 'mathBlock':
      return node.extend({ addNodeView: () => mathView(true) });
    case 'callout':
      return node.extend({ addNodeView: () => calloutView });
    case 'details':
      return node.extend({ addNodeView: () => detailsView });
    case 'embed':
      return node.extend({ addNodeView: () => embedView });
    case 'columns':
      return withColumnsKeys(node);
    case 'linkCard':
      return node.extend({ addNodeView: () => linkCardView(target?.workspaceId ?? null) });
    case 'fileAttachment':
      return node.extend({ addNodeView: () => fileView });
    case 'image':
      return node.extend({ addNodeView: () => imageView });
    case 'video':
    case 'audio':
      return node.extend({ addNodeView: () => mediaView(ext.name as 'video' | 'audio') });
    case 'date':
      return node.extend({ addNodeView: () => dateView, addKeyboardShortcuts: () => openOnEnter('date', OPEN_DATE_EVENT) });
    case 'footnote':
      return node.extend({
        addNodeView: () => footnoteView,
        addKeyboardShortcuts: () => openOnEnter('footnote', OPEN_FOOTNOTE_EVENT),
        addProseMirrorPlugins: () => [footnoteNumbers()],
      });
    default:
      return ext;
  }
}

/** Input rules and the diagrams under Mermaid code blocks; adds no node or mark. */
export const BlockViews = Extension.create({
  name: 'blockViews',
  addInputRules() {
    const type = this.editor.schema.nodes;
    return [
      new InputRule({
        find: /^\$\$\s$/,
        handler: ({ state, range }) => {
          const $from = state.doc.resolve(range.from);
          state.tr.replaceRangeWith($from.before(), $from.after(), type.mathBlock.create({ latex: '' }));
        },
      }),
      new InputRule({
        find: /^:::(info|note|success|warning|danger)\s$/,
        handler: ({ state, range, match, chain }) => {
          state.tr.delete(range.from, range.to);
          chain().wrapIn('callout', { type: match[1] }).run();
        },
      }),
    ];
  },
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key: diagramsKey,
        state: {
          init: (_, state) => diagramDecorations(state.doc),
          apply: (tr, old) => (tr.docChanged ? diagramDecorations(tr.doc) : old),
        },
        props: { decorations: (state) => diagramsKey.getState(state) },
      }),
    ];
  },
});
