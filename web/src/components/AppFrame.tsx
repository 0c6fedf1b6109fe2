// The frame of every signed-in page: a header with the site's name, the main places, the search box and the
// person's menu (sign out).

import { AppShell, Anchor, Button, Group, Menu, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { logout } from '../api/session';
import { newQuestionUrl } from '../lib/urls';
import { useSession } from '../lib/session';
import { Logo } from './Logo';

const PLACES = [
  { href: '/', label: 'Home' },
  { href: '/browse/databases', label: 'Databases' },
  { href: '/collection/root', label: 'Collections' },
  { href: '/trash', label: 'Trash' },
];

function SearchBox() {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const current = location === '/search' ? (new URLSearchParams(search).get('q') ?? '') : '';
  const [text, setText] = useState(current);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) navigate(`/search?q=${encodeURIComponent(text.trim())}`);
  };
  return (
    <form onSubmit={submit} role="search">
      <TextInput aria-label="Search" placeholder="Search…" value={text} onChange={(e) => setText(e.currentTarget.value)} w={260} />
    </form>
  );
}

/** New things to make: a SQL query (the SQL editor on a new native question). */
function NewMenu() {
  const [, navigate] = useLocation();
  const sql = () => {
    const url = newQuestionUrl({ dataset_query: { database: null, type: 'native', native: { query: '', 'template-tags': {} } } });
    // On /question already, only the hash changes: set it so the page hears the hashchange and starts over.
    if (window.location.pathname === '/question') window.location.hash = url.slice(url.indexOf('#'));
    else navigate(url);
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-md">New</Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={sql}>SQL query</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function UserMenu() {
  const { user, refresh } = useSession();
  const [, navigate] = useLocation();
  const signOut = async () => {
    try {
      await logout();
    } finally {
      await refresh();
      navigate('/auth/login', { replace: true });
    }
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu">
          <Text fw={500}>{user?.common_name ?? user?.email}</Text>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function AppFrame({ children }: { children: ReactNode }) {
  const { properties } = useSession();
  const [location] = useLocation();
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="lg" wrap="nowrap">
            <Anchor component={Link} href="/" underline="never" c="inherit">
              <Group gap={8} wrap="nowrap">
                <Logo size={28} />
                <Text fw={700}>{properties['site-name'] ?? 'Quarry'}</Text>
              </Group>
            </Anchor>
            <Group gap={4} component="nav" aria-label="Main" wrap="nowrap">
              {PLACES.map((place) => {
                const active = place.href === '/' ? location === '/' : location.startsWith(place.href);
                return (
                  <Button key={place.href} component={Link} href={place.href} variant={active ? 'light' : 'subtle'} size="compact-md">
                    {place.label}
                  </Button>
                );
              })}
            </Group>
          </Group>
          <Group wrap="nowrap">
            <SearchBox />
            <NewMenu />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
