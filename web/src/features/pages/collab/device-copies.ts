/* Pages kept on this device for offline editing. No Yjs here: the app shell imports this at sign-out. */

/** The IndexedDB database a page is kept in on this device. */
export const localName = (pageId: string) => `kb-page-${pageId}`;

/**
 * Deletes every page kept on this device (at sign-out: the next person at this browser must not find them). A copy
 * still open is deleted as soon as its page closes.
 */
export async function forgetPagesOnThisDevice(): Promise<void> {
  const databases = (await indexedDB.databases?.().catch(() => [])) ?? [];
  await Promise.all(
    databases
      .map((db) => db.name)
      .filter((name): name is string => !!name?.startsWith(localName('')))
      .map(
        (name) =>
          new Promise<void>((resolve) => {
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = request.onerror = request.onblocked = () => resolve();
          }),
      ),
  );
}
