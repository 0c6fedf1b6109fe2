// Built in the next step (public and embedded pages with their hash options).

import { NotBuilt } from '../components/NotBuilt';

export default function EmbedQuestionPage() {
  return <NotBuilt title="Shared page">This shared page is not shown in the browser yet.</NotBuilt>;
}
