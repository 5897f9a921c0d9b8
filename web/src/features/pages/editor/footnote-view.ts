import { FOOTNOTE_MAX } from '@editor/footnotes';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/**
 * A footnote (`footnote` of src/editor/footnotes.ts) as a superscript number: its place among the page's footnotes,
 * which `footnoteNumbers` computes (node decorations, so inserting one renumbers those after it; nothing is stored).
 * Hovering or focusing it shows its text in a small tip; for an editor a click (or Enter with it selected) opens a
 * one-line field to write it, which Enter, Escape or leaving the field closes (a note left empty is removed). Under
 * the page, a read-only "Footnotes" list numbers their texts, as an export does.
 */

/** The editor event that opens the selected footnote's field (the slash menu's "Footnote", Enter on a selected one). */
export const OPEN_FOOTNOTE_EVENT = 'kbOpenFootnote';

const numbersKey = new PluginKey<DecorationSet>('kbFootnoteNumbers');

function footnotesList(texts: string[]) {
  return () => {
    const box = document.createElement('section');
    box.className = 'kb-footnotes';
    box.contentEditable = 'false';
    box.setAttribute('aria-label', 'Footnotes');
    const title = document.createElement('div');
    title.className = 'kb-footnotes-title';
    title.textContent = 'Footnotes';
    const list = document.createElement('ol');
    for (const text of texts) {
      const item = document.createElement('li');
      item.textContent = text || '…';
      list.append(item);
    }
    box.append(title, list);
    return box;
  };
}

function numberDecorations(doc: PMNode): DecorationSet {
  const decos: Decoration[] = [];
  const texts: string[] = [];
  doc.descendants((node, pos) => {
    if (node.type.name !== 'footnote') return true;
    texts.push(String(node.attrs.text ?? ''));
    decos.push(Decoration.node(pos, pos + node.nodeSize, {}, { footnoteNumber: texts.length }));
    return false;
  });
  if (texts.length)
    decos.push(Decoration.widget(doc.content.size, footnotesList(texts), { side: 1, key: `footnotes:${JSON.stringify(texts)}`, ignoreSelection: true }));
  return DecorationSet.create(doc, decos);
}

/** Numbers the footnotes in document order and lists them under the page. */
export function footnoteNumbers() {
  return new Plugin<DecorationSet>({
    key: numbersKey,
    state: {
      init: (_, state) => numberDecorations(state.doc),
      apply: (tr, old) => (tr.docChanged ? numberDecorations(tr.doc) : old),
    },
    props: { decorations: (state) => numbersKey.getState(state) },
  });
}

const numberIn = (decorations: readonly Decoration[]) =>
  (decorations.find((d) => (d.spec as { footnoteNumber?: number }).footnoteNumber)?.spec as { footnoteNumber?: number } | undefined)?.footnoteNumber ?? 0;

export function footnoteView({ node, editor, getPos, decorations }: NodeViewRendererProps) {
  const dom = document.createElement('sup');
  dom.className = 'kb-footnote';
  dom.setAttribute('data-type', 'footnote');
  const ref = document.createElement('span');
  ref.className = 'kb-footnote-ref';
  ref.tabIndex = 0;
  ref.setAttribute('role', 'button');
  const tip = document.createElement('span');
  tip.className = 'kb-footnote-tip';
  tip.setAttribute('aria-hidden', 'true');
  dom.append(ref, tip);
  let current = node;
  let number = numberIn(decorations);
  let editorBox: HTMLElement | null = null;

  const paint = () => {
    const text = String(current.attrs.text ?? '');
    ref.textContent = String(number || '*');
    ref.setAttribute('aria-label', `Footnote ${number}: ${text || 'empty'}${editor.isEditable ? ' (press Enter to edit)' : ''}`);
    tip.textContent = text || 'Empty footnote';
  };
  const posOf = () => (typeof getPos === 'function' ? getPos() : undefined);
  /** Writes the text (an empty note is removed); with `refocus`, the caret goes back to the text, just after the note. */
  const commit = (raw: string, refocus: boolean) => {
    const pos = posOf();
    if (pos === undefined) return;
    const text = raw.replace(/\s+/g, ' ').trim().slice(0, FOOTNOTE_MAX);
    const tr = editor.state.tr;
    if (!text) tr.delete(pos, pos + current.nodeSize);
    else if (text !== current.attrs.text) tr.setNodeMarkup(pos, undefined, { ...current.attrs, text });
    if (refocus) tr.setSelection(TextSelection.create(tr.doc, text ? pos + current.nodeSize : pos));
    if (tr.docChanged || refocus) editor.view.dispatch(tr);
    // Now, not a frame later as `commands.focus()` would: a key typed straight after Enter must reach the text.
    if (refocus) editor.view.focus();
  };
  const close = () => {
    editorBox?.remove();
    editorBox = null;
    dom.classList.remove('is-open');
  };
  const open = () => {
    if (editorBox || !editor.isEditable) return;
    editorBox = document.createElement('span');
    editorBox.className = 'kb-footnote-editor';
    editorBox.contentEditable = 'false';
    const field = document.createElement('input');
    field.type = 'text';
    field.className = 'kb-footnote-field';
    field.maxLength = FOOTNOTE_MAX;
    field.placeholder = 'Footnote text';
    field.setAttribute('aria-label', `Footnote ${number} text`);
    field.value = String(current.attrs.text ?? '');
    let done = false;
    const finish = (refocus: boolean) => {
      if (done) return;
      done = true;
      const value = field.value;
      close();
      commit(value, refocus);
    };
    field.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' || e.key === 'Enter') {
        e.preventDefault();
        finish(true);
      }
    });
    field.addEventListener('blur', () => setTimeout(() => finish(false), 0));
    editorBox.append(field);
    dom.append(editorBox);
    dom.classList.add('is-open');
    // Kept on screen near the right edge (a narrow phone).
    const overflow = editorBox.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) editorBox.style.left = `${-overflow}px`;
    requestAnimationFrame(() => field.focus());
  };
  paint();
  ref.addEventListener('click', () => open());
  const onOpen = () => {
    const pos = posOf();
    const { selection } = editor.state;
    if (pos !== undefined && selection.from === pos && selection.to === pos + current.nodeSize) open();
  };
  const bus = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
  bus.on(OPEN_FOOTNOTE_EVENT, onOpen);
  return {
    dom,
    update(updated: PMNode, decos: readonly Decoration[]) {
      if (updated.type !== current.type) return false;
      current = updated;
      number = numberIn(decos);
      paint();
      return true;
    },
    selectNode: () => dom.classList.add('ProseMirror-selectednode'),
    deselectNode: () => dom.classList.remove('ProseMirror-selectednode'),
    stopEvent: (event: Event) => !!editorBox && editorBox.contains(event.target as globalThis.Node),
    ignoreMutation: () => true,
    destroy: () => {
      bus.off(OPEN_FOOTNOTE_EVENT, onOpen);
      editorBox?.remove();
    },
  };
}
