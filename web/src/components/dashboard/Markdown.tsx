// The Markdown of a dashboard text card, drawn as React elements (never as HTML: a card's text can't inject markup
// or script). What Metabase's text cards use most: headings, paragraphs, bullet and numbered lists, **bold**,
// *italic*, `code`, [links](https://…) and bare URLs, horizontal rules. Anything else is shown as typed.

import { Anchor, Code, Divider, List, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { isExternal, safeHref } from './links';

// Underscores emphasise only at word edges, so snake_case names stay as typed.
const INLINE = /(\*\*[^*]+\*\*|(?<!\w)__[^_]+__(?!\w)|\*[^*\s][^*]*\*|(?<!\w)_[^_\s][^_]*_(?!\w)|`[^`]+`|\[[^\]]+\]\([^)\s]+\)|https?:\/\/[^\s<>)]+)/g;

function link(href: string | null, label: ReactNode, key: number): ReactNode {
  if (!href) return label;
  return (
    <Anchor key={key} href={href} {...(isExternal(href) ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
      {label}
    </Anchor>
  );
}

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const match of text.matchAll(INLINE)) {
    const token = match[0];
    if (match.index > last) out.push(text.slice(last, match.index));
    last = match.index + token.length;
    if (token.startsWith('**') || token.startsWith('__')) out.push(<strong key={key++}>{inline(token.slice(2, -2))}</strong>);
    else if (token.startsWith('`')) out.push(<Code key={key++}>{token.slice(1, -1)}</Code>);
    else if (token.startsWith('[')) {
      const [, label, url] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token)!;
      out.push(link(safeHref(url), inline(label), key++));
    } else if (token.startsWith('http')) out.push(link(safeHref(token), token, key++));
    else out.push(<em key={key++}>{inline(token.slice(1, -1))}</em>);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

type Block = { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string } | { kind: 'list'; ordered: boolean; items: string[] } | { kind: 'rule' } | { kind: 'paragraph'; lines: string[] };

function blocks(source: string): Block[] {
  const out: Block[] = [];
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const previous = out[out.length - 1];
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (!line.trim()) out.push({ kind: 'paragraph', lines: [] });
    else if (heading) out.push({ kind: 'heading', level: heading[1].length as 1, text: heading[2] });
    else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) out.push({ kind: 'rule' });
    else if (bullet || numbered) {
      const ordered = !bullet;
      const item = (bullet ?? numbered)![1];
      if (previous?.kind === 'list' && previous.ordered === ordered) previous.items.push(item);
      else out.push({ kind: 'list', ordered, items: [item] });
    } else if (previous?.kind === 'paragraph' && previous.lines.length) previous.lines.push(line);
    else out.push({ kind: 'paragraph', lines: [line] });
  }
  return out.filter((b) => b.kind !== 'paragraph' || b.lines.length);
}

export function Markdown({ source }: { source: string }) {
  return (
    <>
      {blocks(source).map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return (
              <Title key={i} order={Math.min(block.level + 1, 6) as 2} mb="xs">
                {inline(block.text)}
              </Title>
            );
          case 'rule':
            return <Divider key={i} my="xs" />;
          case 'list':
            return (
              <List key={i} type={block.ordered ? 'ordered' : 'unordered'} mb="xs">
                {block.items.map((item, j) => (
                  <List.Item key={j}>{inline(item)}</List.Item>
                ))}
              </List>
            );
          default:
            return (
              <Text key={i} mb="xs">
                {block.lines.flatMap((line, j) => (j ? [<br key={`br${j}`} />, ...inline(line)] : inline(line)))}
              </Text>
            );
        }
      })}
    </>
  );
}
