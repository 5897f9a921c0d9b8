import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** Elements whose content is chrome or code, not the page's text. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'svg', 'nav', 'header', 'footer', 'aside', 'form', 'template', 'iframe', 'head']);
/** Elements that end a line of text. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'blockquote',
  'pre',
  'dd',
  'dt',
  'main',
]);
const MAIN = new Set(['main', 'article']);

/**
 * Collects the text as the tokenizer streams it. No tree is built and no element stack searched: per element a
 * counter, so every input (unclosed tags, thousands of stray end tags) takes time linear in its length.
 */
class TextCollector {
  title = '';
  all = '';
  main = '';
  private open = new Map<string, number>();
  private mainName: string | null = null;
  private mainDone = false;
  private skipping = 0;
  private inTitle = 0;

  constructor(private readonly html: string) {}

  private count(name: string) {
    return this.open.get(name) ?? 0;
  }

  private append(text: string) {
    if (this.inTitle) this.title += text;
    if (this.skipping || this.inTitle) return;
    this.all += text;
    if (this.mainName && !this.mainDone) this.main += text;
  }

  openTag(name: string) {
    if (name === 'title') this.inTitle++;
    if (SKIPPED.has(name)) this.skipping++;
    if (MAIN.has(name) && !this.mainName && !this.skipping) this.mainName = name;
    this.open.set(name, this.count(name) + 1);
    this.append(name === 'br' ? '\n' : BLOCKS.has(name) ? '\n\n' : ' ');
  }

  closeTag(name: string) {
    const n = this.count(name);
    this.append(BLOCKS.has(name) ? '\n\n' : ' ');
    if (!n) return; // a stray end tag closes nothing
    this.open.set(name, n - 1);
    if (name === 'title') this.inTitle--;
    if (SKIPPED.has(name)) this.skipping--;
    if (name === this.mainName && n === 1) this.mainDone = true;
  }

  callbacks(): TokenizerCallbacks {
    const slice = (start: number, end: number) => this.html.slice(start, end);
    return {
      onopentagname: (start, end) => this.openTag(slice(start, end).toLowerCase()),
      onclosetag: (start, end) => this.closeTag(slice(start, end).toLowerCase()),
      onselfclosingtag: () => {},
      onopentagend: () => {},
      ontext: (start, end) => this.append(slice(start, end)),
      ontextentity: (codepoint) => this.append(String.fromCodePoint(codepoint)),
      oncdata: (start, end) => this.append(slice(start, end)),
      oncomment: () => this.append(' '),
      onattribdata: () => {},
      onattribentity: () => {},
      onattribend: () => {},
      onattribname: () => {},
      ondeclaration: () => {},
      onprocessinginstruction: () => {},
      onend: () => {},
    };
  }
}

const tidy = (text: string) =>
  text
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * The readable text of an HTML page: scripts, styles, navigation and other chrome dropped, block elements as
 * line breaks, entities decoded; the first `main` or `article` element when it has text, else the whole body.
 * Enough for passages; not a renderer.
 */
export function htmlToText(html: string): { title: string; text: string } {
  const collector = new TextCollector(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, collector.callbacks());
  tokenizer.write(html);
  tokenizer.end();
  const main = tidy(collector.main);
  return { title: collector.title.replace(/\s+/g, ' ').trim(), text: main || tidy(collector.all) };
}
