import { type Editor, Extension } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';

/**
 * How a code block shows in the editor: the code (`<pre><code>`, coloured by code-highlight.ts) under a small bar
 * with its language (a picker for people who can edit, the name for readers) and a Copy button. The bar is outside the
 * editable content, so it never reaches the page, its Markdown or other people's cursors.
 */

/** The picker's languages: what lowlight's `common` set colours, plus Mermaid (drawn as a diagram). Value → label. */
export const CODE_LANGUAGES: [string, string][] = [
  ['', 'Plain text'],
  ['bash', 'Bash'],
  ['c', 'C'],
  ['cpp', 'C++'],
  ['csharp', 'C#'],
  ['css', 'CSS'],
  ['diff', 'Diff'],
  ['go', 'Go'],
  ['graphql', 'GraphQL'],
  ['ini', 'INI / TOML'],
  ['java', 'Java'],
  ['javascript', 'JavaScript'],
  ['json', 'JSON'],
  ['kotlin', 'Kotlin'],
  ['less', 'Less'],
  ['lua', 'Lua'],
  ['makefile', 'Makefile'],
  ['markdown', 'Markdown'],
  ['mermaid', 'Mermaid diagram'],
  ['objectivec', 'Objective-C'],
  ['perl', 'Perl'],
  ['php', 'PHP'],
  ['python', 'Python'],
  ['r', 'R'],
  ['ruby', 'Ruby'],
  ['rust', 'Rust'],
  ['scss', 'SCSS'],
  ['shell', 'Shell session'],
  ['sql', 'SQL'],
  ['swift', 'Swift'],
  ['typescript', 'TypeScript'],
  ['vbnet', 'VB.NET'],
  ['xml', 'HTML / XML'],
  ['yaml', 'YAML'],
];
const LABEL = new Map(CODE_LANGUAGES);

/** The label of a stored language (a language typed elsewhere, ```` ```elixir ````, keeps its own name). */
export const languageLabel = (language: string | null | undefined) => LABEL.get(language ?? '') ?? language ?? 'Plain text';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function codeBlockView(editor: Editor, node: PMNode, getPos: () => number | undefined) {
  const dom = document.createElement('div');
  dom.className = 'kb-code';
  const bar = document.createElement('div');
  bar.className = 'kb-code-bar';
  bar.contentEditable = 'false';
  const picker = document.createElement('select');
  picker.className = 'kb-code-language';
  picker.setAttribute('aria-label', 'Code language');
  const name = document.createElement('span');
  name.className = 'kb-code-language-name';
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'kb-code-copy';
  copy.textContent = 'Copy';
  copy.setAttribute('aria-label', 'Copy code');
  bar.append(picker, name, copy);
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  pre.append(code);
  dom.append(bar, pre);

  let current = node;
  const paint = () => {
    const language: string = current.attrs.language ?? '';
    code.className = language ? `language-${language}` : '';
    const editable = editor.isEditable;
    picker.hidden = !editable;
    name.hidden = editable;
    name.textContent = languageLabel(language);
    if (!editable) return;
    const options = LABEL.has(language) ? CODE_LANGUAGES : [...CODE_LANGUAGES, [language, language] as [string, string]];
    if (picker.options.length !== options.length) picker.replaceChildren(...options.map(([value, label]) => new Option(label, value)));
    picker.value = language;
  };
  paint();

  picker.addEventListener('change', () => {
    const pos = getPos();
    if (pos === undefined) return;
    editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...current.attrs, language: picker.value || null }));
  });
  let reset: ReturnType<typeof setTimeout> | undefined;
  copy.addEventListener('mousedown', (e) => e.preventDefault());
  copy.addEventListener('click', () => {
    void copyText(current.textContent).then((ok) => {
      copy.textContent = ok ? 'Copied' : 'Could not copy';
      clearTimeout(reset);
      reset = setTimeout(() => {
        copy.textContent = 'Copy';
      }, 1500);
    });
  });

  return {
    dom,
    contentDOM: code,
    update(updated: PMNode) {
      if (updated.type !== current.type) return false;
      current = updated;
      paint();
      return true;
    },
    // The bar's own events (choosing, clicking Copy) are not the editor's; mutations inside it are not content.
    stopEvent: (event: Event) => bar.contains(event.target as globalThis.Node),
    ignoreMutation: (m: { target: globalThis.Node; type: string }) => bar.contains(m.target) || (m.type === 'attributes' && m.target === code),
    destroy: () => clearTimeout(reset),
  };
}

/**
 * The code block's view, given as a plugin's `nodeViews` (the code block comes with the shared StarterKit, which the
 * web editor does not rebuild); adds no node or mark.
 */
export const CodeBlockBar = Extension.create({
  name: 'codeBlockBar',
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({ key: new PluginKey('codeBlockBar'), props: { nodeViews: { codeBlock: (node, _view, getPos) => codeBlockView(editor, node, getPos) } } }),
    ];
  },
});
