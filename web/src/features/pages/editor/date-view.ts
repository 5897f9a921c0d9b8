import { isIsoDay } from '@editor/dates';
import type { NodeViewRendererProps } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';

/**
 * A date (`date` of src/editor/dates.ts) as a chip showing the day in the reader's language ("7 Dec 2026",
 * "7. Dez. 2026"). For an editor a click (or Enter with the chip selected) opens a date field under it (the browser's
 * own picker); a new day is written as soon as it is picked; Enter, Escape or leaving the field closes it.
 */

/** Today in the person's own time zone, as the schema writes a day. */
export function todayIso(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const shown = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const spoken = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeZone: 'UTC' });
const asDate = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** The editor event that opens the selected date's field (Enter on a selected chip: see DateKeys). */
export const OPEN_DATE_EVENT = 'kbOpenDate';

export function dateView({ node, editor, getPos }: NodeViewRendererProps) {
  const dom = document.createElement('span');
  dom.className = 'kb-date';
  dom.setAttribute('data-type', 'date');
  const label = document.createElement('time');
  label.className = 'kb-date-label';
  dom.append(label);
  let current = node;
  let picker: HTMLElement | null = null;

  const paint = () => {
    const iso = String(current.attrs.date ?? '');
    const valid = isIsoDay(iso);
    label.dateTime = iso;
    label.textContent = valid ? shown.format(asDate(iso)) : iso;
    label.title = valid ? spoken.format(asDate(iso)) + (editor.isEditable ? ' (click to change)' : '') : iso;
  };
  const commit = (iso: string) => {
    const pos = typeof getPos === 'function' ? getPos() : undefined;
    if (pos === undefined || !isIsoDay(iso) || iso === current.attrs.date) return;
    editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, date: iso }));
  };
  const close = (refocus: boolean) => {
    picker?.remove();
    picker = null;
    dom.classList.remove('is-open');
    if (refocus) editor.view.focus();
  };
  const open = () => {
    if (picker || !editor.isEditable) return;
    picker = document.createElement('span');
    picker.className = 'kb-date-picker';
    picker.contentEditable = 'false';
    const field = document.createElement('input');
    field.type = 'date';
    field.className = 'kb-date-field';
    field.setAttribute('aria-label', 'Date');
    field.value = String(current.attrs.date ?? '');
    field.addEventListener('change', () => commit(field.value));
    field.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' || e.key === 'Enter') {
        e.preventDefault();
        commit(field.value);
        close(true);
      }
    });
    field.addEventListener('blur', () => {
      // Still in the picker (its own button, on some browsers): stay open.
      setTimeout(() => picker && !picker.contains(document.activeElement) && close(false), 0);
    });
    picker.append(field);
    dom.append(picker);
    dom.classList.add('is-open');
    // Kept on screen near the right edge (a narrow phone).
    const overflow = picker.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) picker.style.left = `${-overflow}px`;
    requestAnimationFrame(() => field.focus());
  };
  paint();
  label.addEventListener('click', () => open());
  const onOpen = () => {
    const pos = typeof getPos === 'function' ? getPos() : undefined;
    const { selection } = editor.state;
    if (pos !== undefined && selection.from === pos && selection.to === pos + current.nodeSize) open();
  };
  const bus = editor as unknown as { on(e: string, f: () => void): void; off(e: string, f: () => void): void };
  bus.on(OPEN_DATE_EVENT, onOpen);
  return {
    dom,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      current = updated;
      paint();
      return true;
    },
    selectNode: () => dom.classList.add('ProseMirror-selectednode'),
    deselectNode: () => dom.classList.remove('ProseMirror-selectednode'),
    stopEvent: (event: Event) => !!picker && picker.contains(event.target as globalThis.Node),
    ignoreMutation: () => true,
    destroy: () => {
      bus.off(OPEN_DATE_EVENT, onOpen);
      close(false);
    },
  };
}
