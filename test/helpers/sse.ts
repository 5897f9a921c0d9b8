/** One Server-Sent Event as a browser's EventSource would hand it over (the data parsed as JSON). */
export interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/**
 * Reads a `text/event-stream` body to its end (or until aborted), calling `onEvent` for each named event; comment
 * lines (`: keep-alive`) and events without a name are skipped.
 */
export async function readSse(body: ReadableStream<Uint8Array> | null, onEvent: (event: SseEvent) => void): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
        const frame = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const fields = Object.fromEntries(
          frame
            .split('\n')
            .filter((l) => !l.startsWith(':') && l.includes(':'))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
        );
        if (fields.event) onEvent({ event: fields.event, id: fields.id, data: JSON.parse(fields.data) });
      }
    }
  } catch {
    // aborted
  }
}
