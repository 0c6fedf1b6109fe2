// /public/question/:uuid: a publicly shared question, no sign-in (GET /api/public/card/:uuid and its query).

import { Container, Title } from '@mantine/core';
import { api } from '../api/client';
import type { Card, QueryResult } from '../api/types';
import { useApi } from '../lib/useApi';
import { Loaded } from '../components/Loaded';
import { LazyChart } from '../components/LazyChart';

export default function PublicQuestionPage({ params }: { params: { uuid: string } }) {
  const uuid = encodeURIComponent(params.uuid);
  const card = useApi((signal) => api.get<Card>(`/api/public/card/${uuid}`, { signal, allowUnauthorized: true }), [uuid]);
  const result = useApi((signal) => api.get<QueryResult>(`/api/public/card/${uuid}/query`, { signal, allowUnauthorized: true }), [uuid]);
  return (
    <Container size="lg" py="md">
      <Loaded state={card}>
        {(c) => (
          <>
            <Title order={2} mb="md">
              {c.name}
            </Title>
            <Loaded state={result}>{(r) => <LazyChart data={r.data} display={c.display} settings={c.visualization_settings} name={c.name} />}</Loaded>
          </>
        )}
      </Loaded>
    </Container>
  );
}
