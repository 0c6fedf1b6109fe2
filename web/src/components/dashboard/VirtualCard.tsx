// Dashcards without a card (`visualization_settings.virtual_card`): heading, text (Markdown), link and placeholder
// cards. `{{tag}}` in their text is filled from the filters wired to it (parameter_mappings with a text-tag target).

import { Anchor, Box, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { Parameter } from '../../api/types';
import { Markdown } from './Markdown';
import { entityHref, isExternal, safeHref, type LinkEntity } from './links';
import type { FilterValues, ParameterMapping } from './types';

interface VirtualDashcard {
  visualization_settings?: Record<string, unknown>;
  parameter_mappings?: ParameterMapping[];
}

export function virtualDisplay(dashcard: VirtualDashcard): string | undefined {
  return (dashcard.visualization_settings?.virtual_card as { display?: string } | undefined)?.display;
}

function fillTags(text: string, dashcard: VirtualDashcard, parameters: Parameter[], values: FilterValues): string {
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, tag: string) => {
    const mapping = dashcard.parameter_mappings?.find((m) => Array.isArray(m.target) && m.target[0] === 'text-tag' && m.target[1] === tag);
    const parameter = mapping && parameters.find((p) => p.id === mapping.parameter_id);
    const value = parameter ? values[parameter.slug] : undefined;
    return value?.length ? value.join(', ') : mapping ? '' : whole;
  });
}

const JUSTIFY: Record<string, string> = { top: 'flex-start', middle: 'center', bottom: 'flex-end' };

function LinkCard({ link }: { link: { url?: string; entity?: LinkEntity } | undefined }) {
  if (link?.entity) {
    const href = entityHref(link.entity);
    if (!href) return <Text c="dimmed">Sorry, you don't have permission to see this link.</Text>;
    return (
      <Anchor component={Link} href={href} fw={600}>
        {link.entity.name}
      </Anchor>
    );
  }
  const href = link?.url ? safeHref(link.url) : null;
  if (!href) return <Text c="dimmed">{link?.url ?? ''}</Text>;
  return (
    <Anchor href={href} fw={600} {...(isExternal(href) ? { target: '_blank', rel: 'noreferrer noopener' } : {})}>
      {link!.url}
    </Anchor>
  );
}

export function VirtualCard({ dashcard, parameters, values }: { dashcard: VirtualDashcard; parameters: Parameter[]; values: FilterValues }) {
  const settings = dashcard.visualization_settings ?? {};
  const display = virtualDisplay(dashcard);
  const text = fillTags(String(settings.text ?? ''), dashcard, parameters, values);
  if (display === 'heading')
    return (
      <Box h="100%" style={{ display: 'flex', alignItems: 'center' }} data-testid="heading-card">
        <Title order={3}>{text}</Title>
      </Box>
    );
  if (display === 'link' || display === 'iframe') return <LinkCard link={(settings.link as { url?: string }) ?? (settings.iframe ? { url: String(settings.iframe) } : undefined)} />;
  if (display === 'placeholder') return null;
  return (
    <Box
      h="100%"
      data-testid="text-card"
      style={{ display: 'flex', flexDirection: 'column', justifyContent: JUSTIFY[String(settings['text.align_vertical'])] ?? 'flex-start', textAlign: (settings['text.align_horizontal'] as 'left') ?? 'left', overflow: 'auto' }}
    >
      <Markdown source={text} />
    </Box>
  );
}
