// Code blocks: the reference's `codehilite` markup, highlighted with highlight.js and its scopes
// mapped to the Pygments class names clients style (`k`, `nf`, `p`, ...).
import type hljsTypes from 'highlight.js';
import { lazy } from '../../lazy.ts';

const hljs = lazy<typeof hljsTypes>('highlight.js');

// Pygments lexer names, which the reference puts in data-code-language.
const LANGUAGE_NAMES: Record<string, string> = {
  python: 'Python', py: 'Python', py3: 'Python', python3: 'Python', py2: 'Python 2.x', python2: 'Python 2.x',
  javascript: 'JavaScript', js: 'JavaScript', typescript: 'TypeScript', ts: 'TypeScript',
  tex: 'TeX', latex: 'TeX', php: 'PHP', 'css+php': 'CSS+PHP', 'html+php': 'HTML+PHP',
  'javascript+php': 'JavaScript+PHP', 'js+php': 'JavaScript+PHP', 'xml+php': 'XML+PHP',
  java: 'Java', c: 'C', cpp: 'C++', 'c++': 'C++', csharp: 'C#', 'c#': 'C#', go: 'Go', golang: 'Go',
  rust: 'Rust', rs: 'Rust', ruby: 'Ruby', rb: 'Ruby', bash: 'Bash', sh: 'Bash', shell: 'Bash', zsh: 'Bash',
  console: 'Bash Session', json: 'JSON', yaml: 'YAML', yml: 'YAML', html: 'HTML', css: 'CSS', sql: 'SQL',
  xml: 'XML', kotlin: 'Kotlin', swift: 'Swift', haskell: 'Haskell', hs: 'Haskell', markdown: 'Markdown',
  md: 'Markdown', diff: 'Diff', scala: 'Scala', perl: 'Perl', lua: 'Lua', r: 'R', elixir: 'Elixir',
  erlang: 'Erlang', dockerfile: 'Docker', docker: 'Docker', ini: 'INI', toml: 'TOML', text: 'Text only',
};

// Language names highlight.js does not know under the reference's spelling.
const HLJS_ALIASES: Record<string, string> = {
  py2: 'python', python2: 'python', py3: 'python', python3: 'python', tex: 'latex',
  'css+php': 'php', 'html+php': 'php', 'javascript+php': 'php', 'js+php': 'php', 'xml+php': 'php',
};

const SCOPE_CLASSES: Record<string, string> = {
  keyword: 'k', built_in: 'nb', 'title.function': 'nf', 'title.function_': 'nf', title: 'nf',
  'title.class': 'nc', 'title.class_': 'nc', 'title.class.inherited': 'nc', literal: 'kc', type: 'kt',
  variable: 'nv', 'variable.language': 'bp', 'variable.constant': 'no', 'template-variable': 'nv',
  attr: 'na', attribute: 'na', property: 'py', subst: 'si', regexp: 'sr', symbol: 'ss', name: 'nt',
  'selector-tag': 'nt', 'selector-class': 'nc', 'selector-id': 'ni', operator: 'o', punctuation: 'p',
  meta: 'cp', 'meta.keyword': 'cp', 'meta.string': 's', doctag: 'sd', section: 'gh', bullet: 'm',
  emphasis: 'ge', strong: 'gs', addition: 'gi', deletion: 'gd', 'char.escape': 'se', quote: 'c', link: 'nl',
};

export function escapeCode(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function unescapeHljs(text: string): string {
  return text.replace(/&(lt|gt|quot|#x27|#39|amp);/g, (_m, e: string) =>
    e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === 'amp' ? '&' : "'");
}

function classFor(scope: string, text: string): string | undefined {
  if (scope === 'string') return text.startsWith("'") ? 's1' : text.startsWith('"') ? 's2' : 's';
  if (scope === 'number') return /^\d+$/.test(text) ? 'mi' : /^0x/i.test(text) ? 'mh' : 'mf';
  if (scope === 'comment') return text.startsWith('#!') ? 'ch' : /^(#|\/\/|--|%|;)/.test(text) ? 'c1' : 'cm';
  return SCOPE_CLASSES[scope];
}

const PLAIN_TOKEN_RE = /(\s+)|([A-Za-z_]\w*)|(\d+(?:\.\d+)?)|([-+*/%=<>!&|^~?]+)|([()[\]{}.,:;@\\$]+)|([^])/g;

interface Piece {
  cls: string | undefined;
  text: string;
}

// Text that highlight.js leaves unscoped is split the way Pygments would tag it.
function splitPlain(text: string, out: Piece[]): void {
  for (const m of text.matchAll(PLAIN_TOKEN_RE)) {
    const cls = m[1] ? undefined : m[2] ? 'n' : m[3] ? (m[3].includes('.') ? 'mf' : 'mi') : m[4] ? 'o' : m[5] ? 'p' : undefined;
    out.push({ cls, text: m[0] });
  }
}

// Languages whose Pygments lexer leaves plain text untagged (no n/p/o split), and the class
// Pygments gives their braces.
const PLAIN_TEXT_LANGUAGES: Record<string, string | undefined> = { latex: 'nb', markdown: undefined, plaintext: undefined };

function hljsToPygments(html: string, quotes: boolean, language: string): string {
  const pieces: Piece[] = [];
  const scopes: string[] = [];
  const tagRe = /<span class="([^"]*)">|<\/span>/g;
  let last = 0;
  const emit = (raw: string): void => {
    if (!raw) return;
    const text = unescapeHljs(raw);
    // The innermost scope that maps to a class wins; 'params' and friends are transparent.
    for (let i = scopes.length - 1; i >= 0; i--) {
      const cls = classFor(scopes[i] ?? '', text);
      if (cls) {
        pieces.push({ cls, text });
        return;
      }
    }
    if (language in PLAIN_TEXT_LANGUAGES) {
      const braces = PLAIN_TEXT_LANGUAGES[language];
      for (const part of text.split(/([{}])/)) if (part) pieces.push({ cls: braces && /^[{}]$/.test(part) ? braces : undefined, text: part });
    } else {
      splitPlain(text, pieces);
    }
  };
  for (const m of html.matchAll(tagRe)) {
    emit(html.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) scopes.push(m[1].replace(/^hljs-/, '').split(' ')[0]?.replace(/_$/, '') ?? '');
    else scopes.pop();
  }
  emit(html.slice(last));
  let out = '';
  let i = 0;
  while (i < pieces.length) {
    const p = pieces[i] as Piece;
    let text = p.text;
    let j = i + 1;
    while (j < pieces.length && (pieces[j] as Piece).cls === p.cls) text += (pieces[j++] as Piece).text;
    let cls = p.cls === 'n' && PSEUDO_BUILTINS.has(text) ? 'bp' : p.cls;
    // Pygments' Python lexer tags the space after `def` and `class` as whitespace.
    const prev = pieces[i - 1];
    if (language === 'python' && !cls && /^ +$/.test(text) && prev?.cls === 'k' && (prev.text === 'def' || prev.text === 'class')) cls = 'w';
    out += cls ? `<span class="${cls}">${textEscape(text, quotes)}</span>` : textEscape(text, quotes);
    i = j;
  }
  return out;
}

// Names Pygments tags as pseudo built-ins where highlight.js leaves them plain.
const PSEUDO_BUILTINS = new Set(['self', 'cls']);

const SHEBANG_RE = /^(?:(?:::+)|(#!))((?:\/\w+)*[/ ])?([\w#.+-]*)/;

// With a language the reference re-serializes the block, which leaves quotes unescaped.
function textEscape(text: string, quotes: boolean): string {
  const html = escapeCode(text);
  return quotes ? html : html.replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

function highlight(lang: string | undefined, text: string, quotes: boolean): string {
  const name = lang ? (HLJS_ALIASES[lang] ?? lang) : undefined;
  if (name && hljs().getLanguage(name)) {
    try {
      return hljsToPygments(hljs().highlight(text, { language: name, ignoreIllegals: true }).value, quotes, (hljs().getLanguage(name)?.name ?? name).toLowerCase());
    } catch {
      // A grammar failure falls back to plain text rather than failing the message.
    }
  }
  return textEscape(text, quotes);
}

export function formatCode(lang: string | undefined, raw: string): string {
  const text = raw.replace(/^\n+|\n+$/g, '');
  let hlLang = lang;
  if (!hlLang) {
    const m = SHEBANG_RE.exec(text.split('\n', 1)[0] ?? '');
    if (m?.[3]) hlLang = m[3].toLowerCase();
  }
  const attr = lang ? ` data-code-language="${escapeCode(LANGUAGE_NAMES[lang] ?? lang)}"` : '';
  return `<div class="codehilite"${attr}><pre><span></span><code>${highlight(hlLang, text, !lang)}\n</code></pre></div>`;
}
