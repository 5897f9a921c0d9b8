import * as Y from 'yjs';
import { prng } from '../search-relevance/corpus.js';
import type { Latencies } from './sequential.js';

/**
 * Convergence of Yjs documents kept in step by some transport: every insert is marked by its Yjs id (the typing
 * client and its clock, unique by construction), and a document has it once its state vector for that client passes
 * that clock. Works for any transport that applies remote updates as non-local transactions.
 */
export interface ConvergenceFigures {
  /** Per insert: from the keystroke until the last other document has it. */
  toAll: Latencies;
  /** Per insert and other document: from the keystroke until that document has it. */
  toEach: Latencies;
  inserts: number;
  /** Inserts some other document never had (within the drain time after typing stopped). */
  missing: number;
  /** Whether every document ends with the same content. */
  converged: boolean;
}

interface Insert {
  clock: number;
  at: number;
  waitingFor: number;
}

/** The XmlText of the first paragraph of the Tiptap field `default`, made when missing. */
function firstParagraphText(doc: Y.Doc): Y.XmlText {
  const fragment = doc.getXmlFragment('default');
  if (fragment.length === 0) fragment.push([new Y.XmlElement('paragraph')]);
  const paragraph = fragment.get(0) as Y.XmlElement;
  const found = paragraph.toArray().find((n) => n instanceof Y.XmlText);
  if (found) return found as Y.XmlText;
  const text = new Y.XmlText();
  paragraph.insert(0, [text]);
  return text;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz ';

/**
 * `docs` type for `seconds`: each inserts one character at a random place in the first paragraph every
 * `everyMs` (± 20 %), starting at random offsets; then up to `drainMs` for the last inserts to arrive everywhere.
 */
export async function typeTogether(docs: Y.Doc[], seconds: number, everyMs = 100, drainMs = 5_000, seed = 1): Promise<ConvergenceFigures> {
  const random = prng(seed);
  const sent = new Map<number, Insert[]>(docs.map((d) => [d.clientID, []]));
  const toAll: number[] = [];
  const toEach: number[] = [];
  let pending = 0;
  const others = docs.length - 1;
  const listeners = docs.map((doc) => {
    const seen = new Map<number, number>();
    const listener = (tr: Y.Transaction) => {
      if (tr.local) return;
      const now = performance.now();
      for (const [client, clock] of tr.afterState) {
        const inserts = sent.get(client);
        if (!inserts || clock === tr.beforeState.get(client)) continue;
        let i = seen.get(client) ?? 0;
        for (; i < inserts.length && inserts[i].clock < clock; i++) {
          const insert = inserts[i];
          toEach.push(now - insert.at);
          if (--insert.waitingFor === 0) {
            toAll.push(now - insert.at);
            pending--;
          }
        }
        seen.set(client, i);
      }
    };
    doc.on('afterTransaction', listener);
    return listener;
  });
  const deadline = performance.now() + seconds * 1000;
  const typists = docs.map(
    (doc) =>
      new Promise<void>((resolve) => {
        const text = firstParagraphText(doc);
        const keystroke = () => {
          if (performance.now() >= deadline) return resolve();
          const clock = Y.getState(doc.store, doc.clientID);
          sent.get(doc.clientID)?.push({ clock, at: performance.now(), waitingFor: others });
          pending += others > 0 ? 1 : 0;
          text.insert(random.int(text.length + 1), random.pick([...LETTERS]));
          setTimeout(keystroke, everyMs * (0.8 + 0.4 * random.next()));
        };
        setTimeout(keystroke, random.int(everyMs));
      }),
  );
  await Promise.all(typists);
  const drainUntil = performance.now() + drainMs;
  while (pending > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
  for (const [i, doc] of docs.entries()) doc.off('afterTransaction', listeners[i]);
  const content = docs.map((d) => d.getXmlFragment('default').toString());
  const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
  return {
    toAll: { label: 'to all', sorted: sorted(toAll) },
    toEach: { label: 'to each', sorted: sorted(toEach) },
    inserts: [...sent.values()].reduce((n, xs) => n + xs.length, 0),
    missing: pending,
    converged: content.every((c) => c === content[0]),
  };
}
