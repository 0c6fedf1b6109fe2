// The offline assistant's score on the committed question set (test/assistant/questions.json): every question asked
// of a server holding the Sample Database in SQLite and in PostgreSQL, its card run and compared with the expected
// answer. Prints the score per engine and each miss with the reason.
//
//   npm run bench assistant      or: npx tsx bench/assistant.ts   (ENGINES=sqlite to skip PostgreSQL)

import { startServer, setupAdmin } from '../test/helpers/server.js';
import { registerWarehouses, type Engine } from '../test/query/helpers/warehouses.js';
import { scoreAll } from '../test/assistant/score.js';

const engines = (process.env.ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
const server = await startServer('sqlite');
try {
  const admin = await setupAdmin(server);
  const wh = await registerWarehouses(server, admin, engines);
  for (const engine of engines) {
    const { correct, total, results } = await scoreAll(admin, wh[engine]);
    console.log(`\n${engine}: ${correct}/${total} questions answered correctly`);
    for (const set of [...new Set(results.map((r) => r.set))]) {
      const inSet = results.filter((r) => r.set === set);
      console.log(`  ${set}: ${inSet.filter((r) => r.correct).length}/${inSet.length}`);
    }
    for (const r of results.filter((x) => !x.correct)) console.log(`  ✗ ${r.question}\n      ${r.why}${r.sql ? `\n      ${r.sql.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`);
  }
} finally {
  await server.close();
}
