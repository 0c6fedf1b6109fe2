// The centred card the sign-in pages share: the mark, a title, the form.

import { Container, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from './Logo';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size={420} py={80}>
      <Stack align="center" mb="lg">
        <Logo size={48} />
        <Title order={2} ta="center">
          {title}
        </Title>
      </Stack>
      <Paper withBorder shadow="sm" p="xl" radius="md">
        {children}
      </Paper>
    </Container>
  );
}
