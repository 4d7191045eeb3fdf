// TeX through KaTeX. Errors render as the source in a `tex-error` span, as in the reference.
import type katexTypes from 'katex';
import { lazy } from '../../lazy.ts';
import { escapeHtml } from './html.ts';

const katex = lazy<typeof katexTypes>('katex');

// Bounds keep a hostile formula from expanding macros or sizes without limit.
const OPTIONS = { throwOnError: true, strict: 'ignore', trust: false, maxExpand: 500, maxSize: 100 } as const;

export function renderTex(tex: string, display: boolean): string | undefined {
  try {
    return katex().renderToString(tex, { ...OPTIONS, displayMode: display });
  } catch {
    return undefined;
  }
}

// A ```math block: each paragraph is a separate display formula.
export function formatMathBlock(text: string): string {
  return text
    .split('\n\n')
    .map((para) => renderTex(para, true) ?? `<span class="tex-error">${escapeHtml(para, true)}</span>`)
    .join('\n\n');
}

// Inline $$...$$: the error keeps the dollars.
export function formatInlineTex(body: string): { html: string; ok: boolean } {
  const html = renderTex(body, false);
  if (html !== undefined) return { html, ok: true };
  return { html: `<span class="tex-error">${escapeHtml('$$' + body + '$$')}</span>`, ok: false };
}
