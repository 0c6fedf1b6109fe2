// The frame of a public or embedded question or dashboard: its title (unless `#titled=false`), a border (unless
// `#bordered=false`), a transparent background for `#theme=transparent` (night is Mantine's dark scheme, set by
// App), and a "Powered by" line.

import { Box, Group, Paper, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import type { HashOptions } from '../../lib/hash-options';

export function SharedFrame({ title, options, actions, children }: { title?: string; options: HashOptions; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    if (options.theme !== 'transparent') return;
    const before = document.body.style.background;
    document.body.style.background = 'transparent';
    return () => {
      document.body.style.background = before;
    };
  }, [options.theme]);
  return (
    <Box p="md" data-theme={options.theme} style={options.theme === 'transparent' ? { background: 'transparent' } : undefined}>
      <Paper withBorder={options.bordered} p={options.bordered ? 'md' : 0} data-testid="shared-frame" data-bordered={options.bordered} bg={options.theme === 'transparent' ? 'transparent' : undefined}>
        {(options.titled || actions) && (
          <Group justify="space-between" mb="md" wrap="nowrap">
            {options.titled && title ? <Title order={2}>{title}</Title> : <span />}
            {actions}
          </Group>
        )}
        {children}
      </Paper>
      <Text size="xs" c="dimmed" mt="xs" ta="right">
        Powered by Quarry
      </Text>
    </Box>
  );
}
