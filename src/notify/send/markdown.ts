// The markdown of dashboard text cards and descriptions, as email-safe HTML: headings, paragraphs, line breaks,
// bullet lists, **bold**, *italic*, `code` and [links](http…). Text is escaped first, so nothing the author wrote
// becomes markup; links keep only http(s) and mailto addresses.

import { escapeHtml } from '../../util/html.js';

const FONT = "font-family: Lato, 'Helvetica Neue', Helvetica, Arial, sans-serif;";

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code style="font-family: Menlo, Monaco, monospace;">$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g, '<a href="$2" style="color: #509ee3; text-decoration: none;">$1</a>');
}

export function markdownHtml(markdown: string): string {
  const blocks = markdown.replace(/\r\n?/g, '\n').split(/\n{2,}/);
  return blocks
    .map((block) => {
      const lines = block.split('\n').filter((l) => l.trim() !== '');
      if (!lines.length) return '';
      const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]);
      if (heading && lines.length === 1) {
        const size = [0, 24, 20, 18, 16, 14, 14][heading[1].length];
        return `<h${heading[1].length} style="${FONT} font-size: ${size}px; font-weight: 700; color: #4c5773; margin: 16px 0 8px;">${inline(heading[2])}</h${heading[1].length}>`;
      }
      if (lines.every((l) => /^\s*[-*+]\s+/.test(l))) {
        return `<ul style="${FONT} font-size: 14px; color: #4c5773;">${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*+]\s+/, ''))}</li>`).join('')}</ul>`;
      }
      return `<p style="${FONT} font-size: 14px; line-height: 1.5; color: #4c5773; margin: 8px 0;">${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}
