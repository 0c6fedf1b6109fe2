import { Alert, Container, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page of Metabase's URL space that this app doesn't show yet: says so plainly, and what works instead. */
export function NotBuilt({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size="md" py="xl">
      <Title order={2} mb="md">
        {title}
      </Title>
      <Alert color="yellow" title="Not built yet" data-testid="not-built">
        {children}
      </Alert>
    </Container>
  );
}
