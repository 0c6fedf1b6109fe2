import { Alert, Container } from '@mantine/core';

/** A whole page that could not be shown, and why. */
export function ErrorPage({ title, message }: { title: string; message: string }) {
  return (
    <Container size="sm" py="xl">
      <Alert color="red" title={title} role="alert">
        {message}
      </Alert>
    </Container>
  );
}
