/**
 * Who is on a live page, as co-editing shows them (their caret, its label, an avatar): the co-editing server sets it
 * from the connection's authenticated user, and the web app reads it. One module for both, so the colour a server
 * gives a person is the one the app would pick for them.
 */
export interface Presence {
  id: string;
  name: string;
  /** A 6-digit hex colour: the caret plugin accepts no other form, and nothing else is ever put in a style. */
  color: string;
}

/**
 * Colours for the people on a page: 6-digit hex, each with a contrast of at least 4.5:1 against the white text of a
 * caret label or an avatar's initials.
 */
const PALETTE = ['#1864ab', '#c92a2a', '#087f5b', '#862e9c', '#b35900', '#0b7285', '#c2255c', '#5f3dc4', '#5c7a00'] as const;

/** The only colour form presence may carry. */
export const PRESENCE_COLOUR = /^#[0-9a-f]{6}$/i;

/** A name longer than this is cut (a caret label, a tooltip). */
export const MAX_PRESENCE_NAME = 200;

/** A person's colour, the same on every device and every visit: their id hashed (FNV-1a) into the palette. */
export function colourOf(userId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return PALETTE[(hash >>> 0) % PALETTE.length];
}

/** A person's presence: their id, their name and the colour their id gives them. */
export function presenceOf(user: { id: string; name: string }): Presence {
  return { id: user.id, name: user.name.slice(0, MAX_PRESENCE_NAME), color: colourOf(user.id) };
}

/**
 * What another client's awareness says about its person, made safe to show whatever it holds: an id and a name that
 * are strings (the name only ever shown as text), and a colour that is 6-digit hex (else the id's own). Null when it
 * names no one.
 */
export function shownPresence(user: unknown): Presence | null {
  if (user === null || typeof user !== 'object') return null;
  const { id, name, color } = user as Record<string, unknown>;
  if (typeof id !== 'string' || !id) return null;
  return {
    id,
    name: typeof name === 'string' && name.trim() ? name.slice(0, MAX_PRESENCE_NAME) : 'Someone',
    color: typeof color === 'string' && PRESENCE_COLOUR.test(color) ? color : colourOf(id),
  };
}
