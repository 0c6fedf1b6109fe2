import { Anchor, Container, Text, Title } from '@mantine/core';
import { Link } from 'wouter';

export default function NotFoundPage() {
  return (
    <Container size="sm" py="xl">
      <Title order={2}>We're a little lost…</Title>
      <Text mt="sm">The page you asked for couldn't be found.</Text>
      <Anchor component={Link} href="/" mt="md" display="inline-block">
        Back to the home page
      </Anchor>
    </Container>
  );
}
