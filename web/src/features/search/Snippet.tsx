import { Mark, Text } from '@mantine/core';
import type { ReactNode } from 'react';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The API's escaped text back to plain text (React escapes it again when rendering). */
function decodeEntities(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

/**
 * A search snippet with its matches highlighted. The API sends escaped HTML whose only tags are `<mark>` and
 * `</mark>`; splitting on those markers and rendering the rest as text means nothing from a document is ever parsed
 * as HTML, whatever the API may send.
 */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let match = false;
  for (const piece of snippet.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') match = true;
    else if (piece === '</mark>') match = false;
    else if (piece) parts.push({ text: decodeEntities(piece), match });
  }
  return parts;
}

export function Snippet({ snippet }: { snippet: string }) {
  const parts = snippetParts(snippet);
  if (!parts.length) return null;
  const nodes: ReactNode[] = parts.map((p, i) =>
    p.match ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional and never reorder
      <Mark key={i} color="yellow">
        {p.text}
      </Mark>
    ) : (
      p.text
    ),
  );
  return (
    <Text size="sm" lineClamp={3}>
      {nodes}
    </Text>
  );
}
