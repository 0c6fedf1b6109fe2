// /embed/question/:token: a signed-embed question, no sign-in. SharedQuestion reads the hash options and the filters.

import { useMemo } from 'react';
import { embedSource } from '../components/shared/source';
import { SharedQuestion } from '../components/shared/SharedQuestion';

export default function EmbedQuestionPage({ params }: { params: { token: string } }) {
  const source = useMemo(() => embedSource(params.token), [params.token]);
  return <SharedQuestion source={source} />;
}
