// An X-ray's `related` block: links to other X-rays (zoom in, zoom out, related tables, comparisons), and the
// "show more" link when a cap hid some of this one's cards (`…#show=all` becomes `?show=all`, as in Metabase: a
// hash change alone would not reload the page).

import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { RelatedLink } from './types';

const HEADINGS: Array<[string, string]> = [
  ['zoom-in', 'Zoom in'],
  ['zoom-out', 'Zoom out'],
  ['related', 'Related'],
  ['compare', 'Compare'],
];

export function RelatedLinks({ related, more }: { related: Record<string, RelatedLink[]> | null | undefined; more: string | null | undefined }) {
  const buckets = HEADINGS.filter(([key]) => related?.[key]?.length);
  if (!buckets.length && !more) return null;
  return (
    <Paper withBorder p="md" mt="lg" component="section" aria-label="More X-rays" data-testid="xray-related">
      <Title order={3} mb="sm">
        More X-rays
      </Title>
      {more && (
        <Anchor component={Link} href={more.replace('#show=', '?show=')} mb="sm" display="block">
          Show more about this
        </Anchor>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
        {buckets.map(([key, heading]) => (
          <Stack key={key} gap={6}>
            <Text fw={700} size="sm" c="dimmed" tt="uppercase">
              {heading}
            </Text>
            {related![key].map((link) => (
              <div key={link.url}>
                <Anchor component={Link} href={link.url}>
                  {link.title}
                </Anchor>
                {link.description && (
                  <Text size="xs" c="dimmed">
                    {link.description}
                  </Text>
                )}
              </div>
            ))}
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
