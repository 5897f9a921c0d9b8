import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignedInWorkspace, editorOf, handbookWithPage, pageAddress, sessionSignedIn, storedWith, useWebApp, visible, type WebApp } from './harness.js';

/**
 * File, video and audio blocks: a text file chosen through the slash menu's "File", a generated WAV through "Audio",
 * a generated WebM video and another WAV dropped onto the page; each uploaded as an attachment and shown as its block
 * (the players loading only metadata, from the attachment); all still there after a reload, the file downloaded, the
 * stored Markdown read through the API; a file past the attachment limit refused in words.
 */

const web: WebApp = useWebApp();
let owner: Awaited<ReturnType<typeof apiSignedInWorkspace>>;
let pageId: string;
let url: string;

const NOTES = 'Minutes of the kick-off.\nDecisions: ship it.\n';

/** A tiny WAV: `ms` milliseconds of a 440 Hz tone, 8 kHz mono 16-bit PCM. */
function wav(ms: number): Buffer {
  const rate = 8000;
  const samples = Math.round((rate * ms) / 1000);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return out;
}

async function slash(page: Page, name: RegExp) {
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/', { delay: 15 });
  await visible(page.getByRole('listbox', { name: 'Insert block' }));
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('option', { name }).click()]);
  return chooser;
}

/**
 * Drops files made in the page onto the editor's first paragraph, as a person dragging them from their desktop would:
 * a WAV (given as Base64) and a half-second WebM video recorded from a canvas by the browser itself.
 */
async function dropMedia(page: Page, wavBase64: string) {
  await page.evaluate(async (wavData) => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 90;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    const recorder = new MediaRecorder(canvas.captureStream(10), { mimeType: 'video/webm' });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    recorder.start();
    for (let i = 0; i < 6; i++) {
      g.fillStyle = `hsl(${i * 60} 70% 50%)`;
      g.fillRect(0, 0, 160, 90);
      await new Promise((r) => setTimeout(r, 100));
    }
    recorder.stop();
    await stopped;
    const dt = new DataTransfer();
    dt.items.add(new File([new Blob(chunks, { type: 'video/webm' })], 'demo.webm', { type: 'video/webm' }));
    dt.items.add(new File([Uint8Array.from(atob(wavData), (c) => c.charCodeAt(0))], 'beep.wav', { type: 'audio/wav' }));
    const target = document.querySelector('[aria-label="Page content"] p') as HTMLElement;
    const box = target.getBoundingClientRect();
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, clientX: box.right - 2, clientY: box.top + 5 }));
  }, wavBase64);
}

/** Whether the player has read its file's metadata (a recorded WebM may not say its length until played through). */
const metadataRead = (page: Page, selector: string) => page.locator(selector).evaluate((el: HTMLMediaElement) => el.readyState >= 1 && !el.error);

/** Whether the player has read its file's length (the attachment is playable, and only its metadata was asked for). */
const durationOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el: HTMLMediaElement) => (el.readyState >= 1 && Number.isFinite(el.duration) ? el.duration : 0));

beforeAll(async () => {
  owner = await apiSignedInWorkspace(web, 'owner');
  const made = await handbookWithPage(web, owner.token, owner.workspaceId, 'Kick-off', 'Files from the kick-off:');
  pageId = made.pageId;
  url = pageAddress(owner.hostname, 'handbook', { id: made.pageId, slug: made.slug });
});

describe('file, video and audio blocks', () => {
  it('uploads a chosen and a dropped file as blocks, keeps them after a reload, downloads the file, and stores Markdown', async () => {
    const page = owner.page;
    await page.goto(url);
    const editor = await visible(editorOf(page));
    await editor.getByText('Files from the kick-off:').click();

    const fileChooser = await slash(page, /^File/);
    expect(await fileChooser.element().getAttribute('accept')).toBe('');
    await fileChooser.setFiles({ name: 'minutes.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) });
    const card = await visible(editor.locator('.kb-file'));
    await visible(page.getByText('Uploaded minutes.txt'));
    expect(await card.locator('.kb-file-name').textContent()).toBe('minutes.txt');
    expect(await card.locator('.kb-file-meta').textContent()).toBe(`${Buffer.byteLength(NOTES)} bytes · text/plain`);
    expect(await card.locator('.kb-file-badge').textContent()).toBe('TXT');
    const download = card.getByRole('link', { name: 'Download minutes.txt' });
    expect(await download.getAttribute('href')).toMatch(/^\/api\/v1\/attachments\/[^/]+\/download$/);

    const audioChooser = await slash(page, /^Audio/);
    expect(await audioChooser.element().getAttribute('accept')).toBe('audio/*');
    await audioChooser.setFiles({ name: 'tone.wav', mimeType: 'audio/wav', buffer: wav(300) });
    await visible(editor.locator('figure.kb-media-audio audio[preload="metadata"]'));
    await expect.poll(() => durationOf(page, 'figure.kb-media-audio audio')).toBeGreaterThan(0.25);

    await dropMedia(page, wav(200).toString('base64'));
    await visible(editor.locator('figure.kb-media-video video[preload="metadata"]'));
    await expect.poll(() => editor.locator('figure.kb-media-audio').count()).toBe(2);

    const stored = await storedWith(web, owner.token, pageId, 'beep.wav', 20_000);
    const id = '[A-Za-z0-9_-]+';
    expect(stored.markdown).toMatch(new RegExp(`^Files from the kick-off:\\n\\n::video\\[demo\\.webm\\]\\(/api/v1/attachments/${id}/download\\)\\n\\n`));
    expect(stored.markdown).toMatch(new RegExp(`::audio\\[beep\\.wav\\]\\(/api/v1/attachments/${id}/download\\)\\n`));
    expect(stored.markdown).toMatch(
      new RegExp(`::file\\[minutes\\.txt\\]\\(/api/v1/attachments/${id}/download\\)\\{size=${Buffer.byteLength(NOTES)} type="text/plain"\\}\\n`),
    );
    expect(stored.markdown).toMatch(new RegExp(`::audio\\[tone\\.wav\\]\\(/api/v1/attachments/${id}/download\\)\\n`));
    const files = await web.t.request({ url: '/api/v1/attachments', token: owner.token, query: { workspaceId: owner.workspaceId, pageId } });
    expect(files.body.data.map((f: { filename: string }) => f.filename).sort()).toEqual(['beep.wav', 'demo.webm', 'minutes.txt', 'tone.wav']);

    await page.reload();
    await visible(editorOf(page));
    await visible(editor.locator('.kb-file .kb-file-name', { hasText: 'minutes.txt' }));
    await expect.poll(() => metadataRead(page, 'figure.kb-media-video video')).toBe(true);
    await expect.poll(() => durationOf(page, 'figure.kb-media-audio audio >> nth=1')).toBeGreaterThan(0.25);
    await web.shot(page, 'file-blocks-desktop-light');

    // The download link saves the file as it was uploaded.
    const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(saved.suggestedFilename()).toBe('minutes.txt');
    expect(readFileSync((await saved.path()) as string, 'utf8')).toBe(NOTES);
    const response = await page.request.get((await download.getAttribute('href')) as string);
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe(NOTES);

    await page.getByRole('button', { name: 'Use dark theme' }).click();
    await web.shot(page, 'file-blocks-desktop-dark');
    const phone = await sessionSignedIn(web, owner.who, { width: 375, height: 800 });
    await phone.goto(url);
    await visible(phone.locator('.kb-file'));
    await web.shot(phone, 'file-blocks-375-light');
  });

  it('says in words that a file past the attachment limit was not uploaded', async () => {
    const page = owner.page;
    await page.goto(url);
    await visible(editorOf(page));
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(26 * 1024 * 1024)], 'huge.bin', { type: 'application/octet-stream' }));
      const target = document.querySelector('[aria-label="Page content"] p') as HTMLElement;
      const box = target.getBoundingClientRect();
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true, clientX: box.left + 5, clientY: box.top + 5 }));
    });
    await visible(page.getByText('Could not upload huge.bin'));
    await visible(page.getByText('huge.bin is 26 MB, more than the limit of 25 MB for one file. Share a smaller file, or a link to it.'));
    const files = await web.t.request({ url: '/api/v1/attachments', token: owner.token, query: { workspaceId: owner.workspaceId, pageId } });
    expect(files.body.data.map((f: { filename: string }) => f.filename)).not.toContain('huge.bin');
  });
});
