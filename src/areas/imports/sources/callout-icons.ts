/**
 * A callout's icon from another tool (the schema's `callout.icon`: a short run of characters, no spaces or markup).
 * Notion writes it as a callout's first characters (Markdown export) or in an element of its own (HTML export), and
 * it may be a picture; kb keeps it only when it is one emoji, and names a picture it could not keep.
 */

/**
 * One emoji: a flag (two regional indicators), a keycap, or a pictograph shown as an emoji (by default, or by its
 * variation selector: a bare © or ™ is text) with its skin tone and tag characters, joined to more by zero-width
 * joiners (👩‍💻).
 */
const ONE_EMOJI =
  '(?:\\p{Regional_Indicator}{2}|[#*0-9]\\uFE0F?\\u20E3|(?:\\p{Emoji_Presentation}|\\p{Extended_Pictographic}\\uFE0F)(?:\\uFE0F|\\p{Emoji_Modifier}|[\\u{E0020}-\\u{E007F}])*(?:\\u200D\\p{Extended_Pictographic}(?:\\uFE0F|\\p{Emoji_Modifier})*)*)';
const EMOJI = new RegExp(`^${ONE_EMOJI}$`, 'u');
const LEADING_EMOJI = new RegExp(`^${ONE_EMOJI}`, 'u');
/** The schema's limit for an icon, in characters. */
const MAX_ICON = 16;

/** Whether `text` is exactly one emoji that a callout's icon may hold. */
export function isEmoji(text: string): boolean {
  return EMOJI.test(text) && [...text].length <= MAX_ICON;
}

/** The emoji that `text` starts with (a callout's first line, `💡 Plans change`), or null. */
export function leadingEmoji(text: string): string | null {
  const emoji = LEADING_EMOJI.exec(text)?.[0];
  return emoji && isEmoji(emoji) ? emoji : null;
}

/** The warning for a callout whose icon is a picture (Notion's own icons, an upload, a custom emoji). */
export function pictureIconWarning(src: string): string {
  return `a callout's icon is a picture (${src}); a callout's icon can only be an emoji, so it was not kept`;
}
