import type { Page } from 'playwright-core';

/**
 * Keys typed one by one into the page's editor (`Page content`), one every `gapMs` (120: a brisk typist), each timed
 * in the page from its `keydown` to the animation frame after the editor's DOM changed. Returns the latencies (ms).
 */
export async function typeTimed(page: Page, keys: string, gapMs = 120): Promise<number[]> {
  await page.evaluate(`(() => {
    const w = window;
    w.__latency = []; w.__down = 0;
    const el = document.querySelector('[role="textbox"][aria-label="Page content"]');
    if (w.__timed !== el) {
      w.__timed = el;
      document.addEventListener('keydown', () => { w.__down = performance.now(); }, true);
      new MutationObserver(() => {
        const down = w.__down; if (!down) return; w.__down = 0;
        requestAnimationFrame(() => w.__latency.push(performance.now() - down));
      }).observe(el, { subtree: true, childList: true, characterData: true });
    }
  })()`);
  for (const key of keys) {
    await page.keyboard.type(key);
    await page.waitForTimeout(gapMs);
  }
  await page.waitForTimeout(500);
  return page.evaluate('window.__latency') as Promise<number[]>;
}
