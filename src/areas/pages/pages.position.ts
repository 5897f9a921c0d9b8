import { randomInt } from 'node:crypto';
import { generateKeyBetween } from 'fractional-indexing';
import type { Db } from '../../db/index.js';
import { validation } from '../../errors.js';
import { pagesRepo } from './pages.repo.js';

export interface Placement {
  position?: string;
  afterId?: string;
  beforeId?: string;
}

export const placementGiven = (p: Placement) => p.position !== undefined || p.afterId !== undefined || p.beforeId !== undefined;

/** Base-62 digits but '0' (a key may not end in it), for the random tail of a generated key. */
const TAIL_DIGITS = '123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TAIL_LENGTH = 3;

/**
 * A key strictly between `a` and `b`, with a random tail: creates take no exclusive lock, so two of them may read the
 * same neighbours at once; with the tail they still get distinct keys (one chance in 226,981 of a tie, and a tie
 * still sorts, by id). The tail keeps the key between its neighbours: `key + tail` sorts right after `key`.
 */
function between(a: string | null, b: string | null): string {
  let key: string;
  try {
    key = generateKeyBetween(a, b);
  } catch {
    // Siblings sharing a key (an old tie): go after the lower one; ties sort by id.
    key = generateKeyBetween(a ?? b, null);
    b = null;
  }
  let tail = '';
  for (let i = 0; i < TAIL_LENGTH; i++) tail += TAIL_DIGITS[randomInt(TAIL_DIGITS.length)];
  const jittered = key + tail;
  return b === null || jittered < b ? jittered : key;
}

/**
 * The position key for a page placed under `parentId`: an explicit `position`, right after `afterId` or right
 * before `beforeId` (a sibling under the same parent, open to `at.userId` when given), else at the end. At most one of the three.
 */
export async function placePosition(
  db: Db,
  at: { workspaceId: string; spaceId: string; parentId: string | null; excludeId?: string; userId?: string },
  input: Placement,
): Promise<string> {
  const given = [input.position, input.afterId, input.beforeId].filter((v) => v !== undefined).length;
  if (given > 1) throw validation('position', 'conflict', 'Give at most one of position, afterId and beforeId');
  if (input.position !== undefined) {
    try {
      generateKeyBetween(input.position, null);
    } catch {
      throw validation('position', 'invalid_key', 'position is not a valid fractional-indexing key (e.g. "a0", "a1", "a0V")');
    }
    return input.position;
  }
  const siblingId = input.afterId ?? input.beforeId;
  if (siblingId !== undefined) {
    const field = input.afterId !== undefined ? 'afterId' : 'beforeId';
    const sibling = await pagesRepo.findSibling(db, at.workspaceId, at.spaceId, siblingId, at.userId);
    if (!sibling || sibling.parentId !== at.parentId || sibling.id === at.excludeId)
      throw validation(field, 'not_a_sibling', `${field} must name another live page under the same parent`);
    if (input.afterId !== undefined) return between(sibling.position, await pagesRepo.siblingPosition(db, at, { after: sibling.position }));
    return between(await pagesRepo.siblingPosition(db, at, { before: sibling.position }), sibling.position);
  }
  return between(await pagesRepo.siblingPosition(db, at, 'last'), null);
}
