/**
 * Colours for the people on a page: 6-digit hex (the caret plugin accepts no other form), each with a contrast of at
 * least 4.5:1 against the white text of a caret label or an avatar's initials.
 */
const PALETTE = ['#1864ab', '#c92a2a', '#087f5b', '#862e9c', '#b35900', '#0b7285', '#c2255c', '#5f3dc4', '#5c7a00'] as const;

/** A person's colour, the same on every device and every visit: their id hashed (FNV-1a) into the palette. */
export function colourOf(userId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return PALETTE[(hash >>> 0) % PALETTE.length];
}
