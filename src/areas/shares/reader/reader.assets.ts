import { createHash } from 'node:crypto';
import { MAX_IMAGE_WIDTH, MIN_IMAGE_WIDTH } from '../../../editor/images.js';

/**
 * The reader's only stylesheet and script, inline (one request for the whole page), each allowed by its hash in the
 * page's Content-Security-Policy: nothing else may run or style the page, whatever its content holds.
 */

/** A block image's width (images.ts) as a rule per whole percentage: the reader allows no style attribute. */
const IMAGE_WIDTHS = Array.from(
  { length: MAX_IMAGE_WIDTH - MIN_IMAGE_WIDTH + 1 },
  (_, i) => `.content figure.image[data-width="${i + MIN_IMAGE_WIDTH}"]{width:${i + MIN_IMAGE_WIDTH}%}`,
).join('');

/** Readable on a phone and a desktop, light or dark as the visitor's system prefers. */
export const READER_CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--link:#0a58ca;--mark:#fff3a3;--accent:#0a58ca}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e6e8eb;--muted:#a3abb5;--line:#3a3f47;--soft:#22252b;--link:#8ab4ff;--mark:#6b5b00;--accent:#8ab4ff}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1.0625rem/1.65 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
a{color:var(--link);text-underline-offset:.15em}
a:focus-visible,summary:focus-visible,button:focus-visible{outline:2px solid var(--accent);outline-offset:2px;border-radius:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:1}
.skip:focus{left:.5rem}
.layout{display:flex;gap:2.5rem;max-width:72rem;margin:0 auto;padding:2rem 1.25rem 1rem}
nav.pages{flex:0 0 15rem;font-size:.9375rem}
nav.pages summary{font-weight:600;cursor:pointer;padding:.25rem 0;color:var(--muted)}
nav.pages ul{list-style:none;margin:0;padding:0}
nav.pages ul ul{padding-left:.875rem;border-left:1px solid var(--line);margin-left:.375rem}
nav.pages a{display:block;padding:.3rem .5rem;border-radius:6px;color:var(--fg);text-decoration:none;line-height:1.35}
nav.pages a:hover{background:var(--soft)}
nav.pages a[aria-current=page]{background:var(--soft);font-weight:600}
main{flex:1;min-width:0;max-width:46rem}
h1.title{font-size:2.25rem;line-height:1.2;margin:0 0 .5rem;letter-spacing:-.01em}
.updated{color:var(--muted);font-size:.875rem;margin:0 0 2rem}
.content>:first-child{margin-top:0}
.content h1,.content h2,.content h3,.content h4{line-height:1.3;margin:2rem 0 .75rem}
.content h1{font-size:1.75rem}.content h2{font-size:1.45rem}.content h3{font-size:1.2rem}.content h4{font-size:1.05rem}
.content p,.content ul,.content ol,.content blockquote,.content pre,.content .table,.content details,.content aside,.content figure{margin:0 0 1rem}
.content li>p{margin:0}
.content ul,.content ol{padding-left:1.5rem}
.content ul[data-type=taskList]{list-style:none;padding-left:0}
.content li[data-type=taskItem]{display:flex;gap:.5rem;align-items:flex-start}
.content li[data-type=taskItem]>input{flex:none;width:1.125rem;height:1.125rem;margin:.3rem 0 0;accent-color:var(--accent)}
.content li[data-type=taskItem][data-checked=true]>div{color:var(--muted);text-decoration:line-through}
.content blockquote{border-left:3px solid var(--line);padding:0 0 0 1rem;color:var(--muted)}
.content img{max-width:100%;height:auto;border-radius:4px}
.content figure.image{width:fit-content;max-width:100%;min-width:min(100%,8rem)}
.content figure.image[data-width] img{display:block;width:100%}
.content figure.image[data-align=center]{margin-left:auto;margin-right:auto;text-align:center}
.content figure.image[data-align=right]{margin-left:auto;text-align:right}
.content figure.image figcaption{color:var(--muted);font-size:.875rem;line-height:1.4;margin-top:.375rem}
${IMAGE_WIDTHS}
.content hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.content code{font:.875em/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:.1em .3em;border-radius:4px}
.content pre{position:relative;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.875rem 1rem;overflow-x:auto}
.content pre code{background:none;padding:0;font-size:.875rem}
.content pre .copy{position:absolute;top:.375rem;right:.375rem;font:inherit;font-size:.75rem;padding:.125rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.content .table{overflow-x:auto}
.content table{border-collapse:collapse;min-width:50%}
.content th,.content td{border:1px solid var(--line);padding:.375rem .625rem;text-align:left;vertical-align:top}
.content th{background:var(--soft)}
.content th>p,.content td>p{margin:0}
.content mark{background:var(--mark);color:inherit}
:root{--c-gray:#6b6b68;--c-brown:#8a5a44;--c-orange:#a84e08;--c-yellow:#876400;--c-green:#2e7650;--c-blue:#2a6fa0;--c-purple:#8051a6;--c-pink:#b03d7c;--c-red:#c0392f;--b-gray:#f1f1ef;--b-brown:#f4eeee;--b-orange:#fbecdd;--b-yellow:#fbf3db;--b-green:#edf3ec;--b-blue:#e7f3f8;--b-purple:#f6f3f9;--b-pink:#faf1f5;--b-red:#fdebec;}
@media (prefers-color-scheme:dark){:root{--c-gray:#a3a3a3;--c-brown:#c9977f;--c-orange:#e8965a;--c-yellow:#dcb050;--c-green:#62b585;--c-blue:#79a9e2;--c-purple:#bc90e7;--c-pink:#e682b4;--c-red:#f1827e;--b-gray:#343434;--b-brown:#3f2d26;--b-orange:#47301f;--b-yellow:#423622;--b-green:#233629;--b-blue:#1d3240;--b-purple:#362b40;--b-pink:#3f2633;--b-red:#442725;}}
.content span[data-color=gray]{color:var(--c-gray)}.content mark[data-color=gray]{background:var(--b-gray)}.content span[data-color=brown]{color:var(--c-brown)}.content mark[data-color=brown]{background:var(--b-brown)}.content span[data-color=orange]{color:var(--c-orange)}.content mark[data-color=orange]{background:var(--b-orange)}.content span[data-color=yellow]{color:var(--c-yellow)}.content mark[data-color=yellow]{background:var(--b-yellow)}.content span[data-color=green]{color:var(--c-green)}.content mark[data-color=green]{background:var(--b-green)}.content span[data-color=blue]{color:var(--c-blue)}.content mark[data-color=blue]{background:var(--b-blue)}.content span[data-color=purple]{color:var(--c-purple)}.content mark[data-color=purple]{background:var(--b-purple)}.content span[data-color=pink]{color:var(--c-pink)}.content mark[data-color=pink]{background:var(--b-pink)}.content span[data-color=red]{color:var(--c-red)}.content mark[data-color=red]{background:var(--b-red)}
.content time[data-type=date]{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:0 .3em;white-space:nowrap}
.content details{border:1px solid var(--line);border-radius:6px;padding:.5rem .875rem}
.content summary{cursor:pointer;font-weight:600}
.content aside{background:var(--soft);border-left:4px solid var(--accent);border-radius:4px;padding:.75rem 1rem}
.content .columns{display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:1.5rem;margin:0 0 1rem}
.content [data-type=column]>:last-child{margin-bottom:0}
.content .embed-card a{display:flex;flex-direction:column;gap:.125rem;border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;background:var(--soft);text-decoration:none}
.content .embed-card strong{color:var(--fg)}
.content a.link-card{display:block;border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:1rem 0;background:var(--soft);overflow-wrap:anywhere}
.content .embed-card span{font-size:.875rem;overflow-wrap:anywhere;text-decoration:underline}
section.children{margin-top:2.5rem;border-top:1px solid var(--line);padding-top:1rem}
section.children h2{font-size:1rem;margin:0 0 .5rem;color:var(--muted)}
section.children ul{margin:0;padding-left:1.25rem}
footer{max-width:72rem;margin:0 auto;padding:2rem 1.25rem;color:var(--muted);font-size:.875rem}
.gone{max-width:32rem;margin:5rem auto;padding:0 1.25rem;text-align:center}
.gone h1{font-size:1.5rem}
@media (max-width:48rem){.layout{display:block;padding-top:1rem}nav.pages{margin-bottom:1.5rem;border-bottom:1px solid var(--line);padding-bottom:.5rem}h1.title{font-size:1.75rem}.content .columns{grid-auto-flow:row;gap:0}}
@media print{nav.pages,footer,.skip,pre .copy{display:none}}
`
  .trim()
  .replace(/\n/g, '');

/**
 * The page's only script, and all it does: a "Copy" button on each code block. No framework, no request, nothing
 * read from the page's address; the page reads fully without it.
 */
export const READER_JS = `document.querySelectorAll('.content pre').forEach(function(pre){var code=pre.querySelector('code')||pre;var b=document.createElement('button');b.type='button';b.className='copy';b.textContent='Copy';b.setAttribute('aria-label','Copy code');b.addEventListener('click',function(){var done=function(){b.textContent='Copied';setTimeout(function(){b.textContent='Copy'},1500)};if(navigator.clipboard)navigator.clipboard.writeText(code.textContent).then(done,function(){});else{var r=document.createRange();r.selectNodeContents(code);var s=getSelection();s.removeAllRanges();s.addRange(r)}});pre.appendChild(b)});`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Nothing runs or styles the page but the two blocks above; images come from the share's own attachments or any
 * http(s) address (as in the editor), raster `data:` images too; no frames, forms, plugins or base URL.
 */
export const READER_CSP = [
  "default-src 'none'",
  `style-src ${sha256(READER_CSS)}`,
  `script-src ${sha256(READER_JS)}`,
  "img-src 'self' data: https: http:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** The error page has no script. */
export const READER_ERROR_CSP = [
  "default-src 'none'",
  `style-src ${sha256(READER_CSS)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
