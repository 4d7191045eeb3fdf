// Minimal rendering until the Markdown renderer lands: escaped text in paragraphs.

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function renderPlain(content: string): string {
  if (content.trim() === '') return '';
  return content
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
