// /public/question/:uuid: a publicly shared question, no sign-in. SharedQuestion reads the hash options and the filters.

import { useMemo } from 'react';
import { publicSource } from '../components/shared/source';
import { SharedQuestion } from '../components/shared/SharedQuestion';

export default function PublicQuestionPage({ params }: { params: { uuid: string } }) {
  const source = useMemo(() => publicSource(params.uuid), [params.uuid]);
  return <SharedQuestion source={source} />;
}
