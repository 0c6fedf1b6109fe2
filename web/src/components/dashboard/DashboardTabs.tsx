// A dashboard's tabs, the selected one in the URL as Metabase writes it (`?tab=7-overview`), so a link opens it.

import { Tabs } from '@mantine/core';
import { useLocation, useSearch } from 'wouter';
import { idOfSlug, slugify } from '../../lib/urls';
import type { DashboardTab } from './types';

export function sortedTabs(tabs: DashboardTab[] | undefined): DashboardTab[] {
  return [...(tabs ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
}

/** The selected tab: the URL's `tab` when it names one of them, else the first. */
export function useSelectedTab(tabs: DashboardTab[]): [DashboardTab | undefined, (tab: DashboardTab) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const wanted = params.get('tab');
  const selected = tabs.find((t) => String(t.id) === wanted || (wanted !== null && t.id === idOfSlug(wanted))) ?? tabs[0];
  const select = (tab: DashboardTab) => {
    params.set('tab', slugify(tab.name) ? `${tab.id}-${slugify(tab.name).replace(/_/g, '-')}` : String(tab.id));
    navigate(`${location}?${params}${window.location.hash}`);
  };
  return [selected, select];
}

export function DashboardTabs({ tabs, selected, onSelect }: { tabs: DashboardTab[]; selected: DashboardTab | undefined; onSelect: (tab: DashboardTab) => void }) {
  if (tabs.length < 2) return null;
  return (
    <Tabs value={selected ? String(selected.id) : null} onChange={(v) => onSelect(tabs.find((t) => String(t.id) === v)!)} mb="md">
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab key={t.id} value={String(t.id)}>
            {t.name}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
