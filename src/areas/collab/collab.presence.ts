import type { Ctx } from '../../context.js';
import { type Presence, presenceOf } from '../../editor/presence.js';
import { notFound } from '../../errors.js';
import { usersRepo } from '../users/users.repo.js';

/** Awareness clients (Yjs client ids) one connection may speak for: a provider has one, a second after a clash. */
export const MAX_CLIENTS_PER_CONNECTION = 4;

/** The presence of the connection's user, from their account: their name, and the colour their id gives them. */
export async function connectionPresence(ctx: Ctx, userId: string): Promise<Presence> {
  const user = await usersRepo.findById(ctx.db, userId);
  if (!user) throw notFound('User', userId);
  return presenceOf(user);
}

/**
 * Vets an awareness update from a client before it is applied and sent to the others: the `user` of every state it
 * carries is the connection's own presence (whatever name and colour the client put there: any participant, a
 * read-only one too, could otherwise show as anyone, with CSS in their colour), and it speaks only for its own
 * clients: a state for a client another connection holds (here, or on another instance through Redis) is dropped, as
 * are new clients past MAX_CLIENTS_PER_CONNECTION.
 *
 * `states` is the update's decoded states, changed in place (Hocuspocus re-encodes what is left); `own` the clients
 * this connection already speaks for; `present` every client the document's awareness holds now.
 */
export function vetAwareness(states: Map<number, Record<string, unknown>>, presence: Presence | undefined, own: Set<number>, present: Map<number, unknown>) {
  let speaksFor = own.size;
  for (const [clientId, state] of states) {
    if (!presence) {
      states.delete(clientId);
      continue;
    }
    if (!own.has(clientId)) {
      if (present.has(clientId) || speaksFor >= MAX_CLIENTS_PER_CONNECTION) {
        states.delete(clientId);
        continue;
      }
      speaksFor++;
    }
    state.user = { ...presence };
  }
}
