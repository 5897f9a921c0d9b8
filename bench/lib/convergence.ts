import * as Y from 'yjs';
import { prng } from '../search-relevance/corpus.js';
import type { Latencies } from './sequential.js';

/**
 * Convergence of Yjs documents kept in step by some transport: every insert is marked by its Yjs id (the typing
 * client and its clock, unique by construction), and a document has it once its state vector for that client passes
 * that clock. Works for any transport that applies remote updates as non-local transactions. The bookkeeping
 * (`InsertLedger`) takes keystrokes and arrivals as events, so it serves editors in this process (`typeTogether`)
 * and editors spread over several processes alike (their events merged, times on a clock shared by processes).
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

/**
 * Every insert typed (client, clock, when) and, per receiving document, how far it has each typist's inserts.
 * Arrivals must come after the keystrokes they cover and in time order (live, or merged and sorted).
 */
export class InsertLedger {
  private readonly sent = new Map<number, Insert[]>();
  /** Per receiving document and typist: index of the first of the typist's inserts it does not have yet. */
  private readonly seen = new Map<number, Map<number, number>>();
  private readonly toAll: number[] = [];
  private readonly toEach: number[] = [];
  private inserts = 0;
  /** Inserts not yet at every other document. */
  pending = 0;

  /** `documents`: how many documents take part (each insert waits for all but its own). */
  constructor(private readonly documents: number) {}

  typed(client: number, clock: number, at: number) {
    const inserts = this.sent.get(client) ?? [];
    if (inserts.length === 0) this.sent.set(client, inserts);
    const others = this.documents - 1;
    inserts.push({ clock, at, waitingFor: others });
    this.inserts++;
    if (others > 0) this.pending++;
  }

  /** Document `receiver` has had every insert of `client` below `clock` since `at`. */
  arrived(receiver: number, client: number, clock: number, at: number) {
    const inserts = this.sent.get(client);
    if (!inserts || receiver === client) return;
    const seen = this.seen.get(receiver) ?? new Map<number, number>();
    if (seen.size === 0) this.seen.set(receiver, seen);
    let i = seen.get(client) ?? 0;
    for (; i < inserts.length && inserts[i].clock < clock; i++) {
      const insert = inserts[i];
      this.toEach.push(at - insert.at);
      if (--insert.waitingFor === 0) {
        this.toAll.push(at - insert.at);
        this.pending--;
      }
    }
    seen.set(client, i);
  }

  figures(converged: boolean): ConvergenceFigures {
    const sorted = (label: string, xs: number[]) => ({ label, sorted: [...xs].sort((a, b) => a - b) });
    return { toAll: sorted('to all', this.toAll), toEach: sorted('to each', this.toEach), inserts: this.inserts, missing: this.pending, converged };
  }
}

/** Calls `arrived(receiver, client, clock, now)` for each typist whose clock a remote transaction moves in `doc`. */
export function watchArrivals(doc: Y.Doc, arrived: (receiver: number, client: number, clock: number, at: number) => void, now = () => performance.now()) {
  const listener = (tr: Y.Transaction) => {
    if (tr.local) return;
    const at = now();
    for (const [client, clock] of tr.afterState) if (clock !== tr.beforeState.get(client)) arrived(doc.clientID, client, clock, at);
  };
  doc.on('afterTransaction', listener);
  return () => doc.off('afterTransaction', listener);
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

const LETTERS = [...'abcdefghijklmnopqrstuvwxyz '];

/**
 * `docs` type until `deadline` (on `now`'s clock): each inserts one character at a random place in the first
 * paragraph every `everyMs` (± 20 %), starting at random offsets; `typed(client, clock, at)` is called just before
 * each insert.
 */
export function typeUntil(
  docs: Y.Doc[],
  deadline: number,
  everyMs: number,
  random: ReturnType<typeof prng>,
  typed: (client: number, clock: number, at: number) => void,
  now = () => performance.now(),
): Promise<void> {
  return Promise.all(
    docs.map(
      (doc) =>
        new Promise<void>((resolve) => {
          const text = firstParagraphText(doc);
          const keystroke = () => {
            if (now() >= deadline) return resolve();
            typed(doc.clientID, Y.getState(doc.store, doc.clientID), now());
            text.insert(random.int(text.length + 1), random.pick(LETTERS));
            setTimeout(keystroke, everyMs * (0.8 + 0.4 * random.next()));
          };
          setTimeout(keystroke, random.int(everyMs));
        }),
    ),
  ).then(() => undefined);
}

/** What a document ends with, to compare documents (in other processes too). */
export const contentOf = (doc: Y.Doc) => doc.getXmlFragment('default').toString();

/**
 * `docs` (all in this process) type for `seconds` (see `typeUntil`); then up to `drainMs` for the last inserts to
 * arrive everywhere.
 */
export async function typeTogether(docs: Y.Doc[], seconds: number, everyMs = 100, drainMs = 5_000, seed = 1): Promise<ConvergenceFigures> {
  const ledger = new InsertLedger(docs.length);
  const unwatch = docs.map((doc) => watchArrivals(doc, (...a) => ledger.arrived(...a)));
  await typeUntil(docs, performance.now() + seconds * 1000, everyMs, prng(seed), (...a) => ledger.typed(...a));
  const drainUntil = performance.now() + drainMs;
  while (ledger.pending > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
  for (const off of unwatch) off();
  const content = docs.map(contentOf);
  return ledger.figures(content.every((c) => c === content[0]));
}
