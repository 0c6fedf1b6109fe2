// "Save this": an X-ray becomes a regular dashboard (POST /api/dashboard/save), and the page moves to it.

import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { api } from '../../api/client';
import { dashboardUrl } from '../../lib/urls';
import type { DashboardJson } from './types';

export function SaveXrayButton({ dashboard }: { dashboard: DashboardJson }) {
  const [, navigate] = useLocation();
  const [state, setState] = useState<{ saving: boolean; error: string | null }>({ saving: false, error: null });
  const save = async () => {
    setState({ saving: true, error: null });
    try {
      const { id: _transient, ...body } = dashboard;
      const saved = await api.post<{ id: number; name: string }>('/api/dashboard/save', body);
      navigate(dashboardUrl(saved.id, saved.name));
    } catch (error) {
      setState({ saving: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <Stack gap={4} align="flex-end">
      <Button onClick={save} loading={state.saving}>
        Save this
      </Button>
      {state.error && (
        <Text c="red" size="sm" role="alert">
          {state.error}
        </Text>
      )}
    </Stack>
  );
}
