import WebSocket from 'ws';
import * as Y from 'yjs';

/** The editors' two transports: the service's Hocuspocus endpoint, and the bare `ws` relay that is its baseline. */
export type Transport = 'relay' | 'service';

/**
 * A clock comparable across processes on this machine, ms: the kernel's monotonic clock (CLOCK_MONOTONIC on Linux),
 * one for every process. `performance.timeOrigin + performance.now()` was seen 3–4 ms apart between processes.
 */
export const sharedNow = () => Number(process.hrtime.bigint()) / 1e6;

/** A Yjs document kept in step through the relay: local updates out, others' updates applied (not local). */
export async function relayEditor(port: number, seed: Uint8Array) {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, seed);
  const socket = new WebSocket(`ws://127.0.0.1:${port}`);
  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== socket) socket.send(update);
  });
  socket.on('message', (data: Buffer) => Y.applyUpdate(doc, new Uint8Array(data), socket));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { doc, close: () => socket.close() };
}

/** A page's starting state as the relay's editors share it: one paragraph, "Start". */
export function seedState() {
  const doc = new Y.Doc();
  const text = new Y.XmlText();
  const paragraph = new Y.XmlElement('paragraph');
  paragraph.insert(0, [text]);
  doc.getXmlFragment('default').insert(0, [paragraph]);
  text.insert(0, 'Start');
  return Y.encodeStateAsUpdate(doc);
}
