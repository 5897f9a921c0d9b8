import { asOneLine, cleanCaption, IMAGE_ALIGNS, type ImageAlign, MAX_CAPTION, MAX_IMAGE_WIDTH, MIN_IMAGE_WIDTH } from '@editor/images';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { NodeSelection } from '@tiptap/pm/state';
import './image-view.css';

/**
 * A block image (src/editor/images.ts) in the editor and the read-only share view: the picture at its width (a
 * percentage of the page) and alignment, and its caption under it. Selected in an editable editor, it shows a small
 * toolbar (align left, centre, right; 25/50/75/100 % wide), a handle on its right edge to drag its width (whole
 * percentages) and a caption field ("Add a caption"). Readers see the same layout without the controls.
 */

const WIDTH_PRESETS = [25, 50, 75, 100];
const ALIGN_LABELS: Record<ImageAlign, string> = { left: 'Align left', center: 'Align centre', right: 'Align right' };
const ALIGN_ICONS: Record<ImageAlign, string> = { left: '⇤', center: '⇹', right: '⇥' };

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string) => {
  const e = document.createElement(tag);
  e.className = className;
  return e;
};

const clampWidth = (n: number) => Math.min(MAX_IMAGE_WIDTH, Math.max(MIN_IMAGE_WIDTH, Math.round(n)));

export function imageView({ node, editor, getPos }: NodeViewRendererProps) {
  const dom = el('figure', 'kb-image');
  dom.setAttribute('data-image', '');
  const frame = el('div', 'kb-image-frame');
  const img = document.createElement('img');
  img.draggable = false;
  const handle = el('span', 'kb-image-handle');
  handle.setAttribute('role', 'slider');
  handle.setAttribute('aria-label', 'Image width');
  handle.setAttribute('aria-valuemin', String(MIN_IMAGE_WIDTH));
  handle.setAttribute('aria-valuemax', String(MAX_IMAGE_WIDTH));
  handle.tabIndex = -1;
  frame.append(img, handle);

  const toolbar = el('div', 'kb-image-toolbar');
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Image layout');
  toolbar.contentEditable = 'false';
  const button = (label: string, content: string, onClick: () => void) => {
    const b = el('button', 'kb-image-tool');
    b.type = 'button';
    b.textContent = content;
    b.setAttribute('aria-label', label);
    b.title = label;
    b.addEventListener('mousedown', (e) => e.preventDefault());
    b.addEventListener('click', onClick);
    toolbar.append(b);
    return b;
  };

  const caption = el('figcaption', 'kb-image-caption');
  const field = el('input', 'kb-image-caption-field');
  field.type = 'text';
  field.placeholder = 'Add a caption';
  field.maxLength = MAX_CAPTION;
  field.setAttribute('aria-label', 'Image caption');
  dom.append(frame, caption);
  dom.contentEditable = 'false';

  let current = node;
  let selected = false;
  let dragging: { startX: number; startWidth: number; parentWidth: number; factor: number; width: number } | null = null;

  const position = () => (typeof getPos === 'function' ? getPos() : undefined);
  const setAttrs = (attrs: Record<string, unknown>) => {
    const pos = position();
    if (pos === undefined || !editor.isEditable) return;
    const tr = editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, ...attrs });
    // Keep the image selected, so its toolbar stays after a change.
    if (selected) tr.setSelection(NodeSelection.create(tr.doc, pos));
    editor.view.dispatch(tr);
  };

  const alignButtons = IMAGE_ALIGNS.map((align) => {
    const b = button(ALIGN_LABELS[align], ALIGN_ICONS[align], () => setAttrs({ align: current.attrs.align === align ? null : align }));
    b.dataset.align = align;
    return b;
  });
  toolbar.append(el('span', 'kb-image-tool-gap'));
  const widthButtons = WIDTH_PRESETS.map((w) => {
    const b = button(`Width ${w} %`, `${w}%`, () => setAttrs({ width: current.attrs.width === w ? null : w }));
    b.dataset.width = String(w);
    return b;
  });

  const showWidth = (width: number | null) => {
    if (width === null) {
      dom.style.removeProperty('width');
      dom.removeAttribute('data-width');
    } else {
      dom.style.width = `${width}%`;
      dom.setAttribute('data-width', String(width));
    }
    handle.setAttribute('aria-valuenow', String(width ?? MAX_IMAGE_WIDTH));
  };

  const paint = () => {
    const { src, alt, title, align, width } = current.attrs;
    if (img.getAttribute('src') !== src) img.src = String(src ?? '');
    img.alt = alt ?? '';
    if (title) img.title = title;
    else img.removeAttribute('title');
    if (align) dom.setAttribute('data-align', align);
    else dom.removeAttribute('data-align');
    if (!dragging) showWidth(width ?? null);
    const editable = editor.isEditable;
    const text = (current.attrs.caption as string | null) ?? '';
    const editing = document.activeElement === field;
    // The field while editing (selected, or already typing in it), the text otherwise; nothing when there is no caption to show.
    if (editable && (selected || editing)) {
      if (!editing) field.value = text;
      if (field.parentElement !== caption) caption.replaceChildren(field);
      caption.hidden = false;
    } else {
      caption.replaceChildren(text);
      caption.hidden = !text;
    }
    dom.classList.toggle('is-selected', selected && editable);
    if (selected && editable) {
      if (!toolbar.isConnected) dom.prepend(toolbar);
    } else toolbar.remove();
    for (const b of alignButtons) b.setAttribute('aria-pressed', String(b.dataset.align === align));
    for (const b of widthButtons) b.setAttribute('aria-pressed', String(Number(b.dataset.width) === width));
  };
  paint();

  field.addEventListener('input', () => setAttrs({ caption: field.value === '' ? null : asOneLine(field.value) }));
  field.addEventListener('blur', () => {
    const cleaned = cleanCaption(field.value);
    if (cleaned !== current.attrs.caption) setAttrs({ caption: cleaned });
    paint();
  });
  field.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === 'Escape') {
      e.preventDefault();
      field.blur();
      const pos = position();
      if (pos !== undefined) editor.chain().focus().setNodeSelection(pos).run();
    }
  });

  // Dragging the right edge: the new width follows the pointer, in whole percentages of the page's width. A centred
  // image grows on both sides, so it moves twice as far as the pointer.
  handle.addEventListener('pointerdown', (e) => {
    if (!editor.isEditable) return;
    e.preventDefault();
    const parentWidth = dom.parentElement?.clientWidth || dom.clientWidth;
    handle.setPointerCapture(e.pointerId);
    dragging = {
      startX: e.clientX,
      startWidth: dom.getBoundingClientRect().width,
      parentWidth,
      factor: current.attrs.align === 'center' ? 2 : 1,
      width: current.attrs.width ?? MAX_IMAGE_WIDTH,
    };
    dom.classList.add('is-resizing');
  });
  handle.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    const px = dragging.startWidth + (e.clientX - dragging.startX) * dragging.factor;
    dragging.width = clampWidth((px / dragging.parentWidth) * 100);
    showWidth(dragging.width);
  });
  const endDrag = () => {
    if (!dragging) return;
    const { width } = dragging;
    dragging = null;
    dom.classList.remove('is-resizing');
    if (width !== current.attrs.width) setAttrs({ width });
    else paint();
  };
  handle.addEventListener('pointerup', endDrag);
  handle.addEventListener('pointercancel', endDrag);

  const controls = [toolbar, field, handle];
  return {
    dom,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      current = updated;
      paint();
      return true;
    },
    selectNode() {
      selected = true;
      dom.classList.add('ProseMirror-selectednode');
      paint();
    },
    deselectNode() {
      selected = false;
      dom.classList.remove('ProseMirror-selectednode');
      paint();
    },
    // The controls' own events are theirs (typing a caption, pressing a button, dragging the handle).
    stopEvent: (event: Event) => controls.some((c) => c.contains(event.target as Node)),
    ignoreMutation: () => true,
  };
}
