// Native (SQL) questions. Placeholder until the SQL editor lands (another branch replaces this file).

import { NotBuilt } from '../components/NotBuilt';
import type { QuestionCard } from '../components/question/card';

export default function NativeQuestionPage({ card }: { card: QuestionCard }) {
  return (
    <NotBuilt title={card.name ?? 'New SQL question'}>
      The SQL editor is on its way. Until then this question can be run through the API
      {card.id ? `: POST /api/card/${card.id}/query` : ': POST /api/dataset'}.
    </NotBuilt>
  );
}
