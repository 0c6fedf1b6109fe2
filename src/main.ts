// Command line: `node dist/main.js` serves; `node dist/main.js migrate` only migrates the app DB.

import { ConfigurationError, loadConfig } from './config.js';
import { createServer } from './server.js';
import { openAppDb } from './appdb/connect.js';
import { migrateToLatest } from './appdb/migrate.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const command = process.argv[2] ?? 'serve';
  if (command === 'migrate') {
    const appDb = await openAppDb(config.appDb);
    const applied = await migrateToLatest(appDb);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Nothing to migrate.');
    await appDb.close();
    return;
  }
  if (command !== 'serve') {
    console.error(`Unknown command "${command}". Use: serve | migrate`);
    process.exit(2);
  }
  const started = performance.now();
  const server = await createServer(config);
  await server.app.listen({ host: config.host, port: config.port });
  server.ctx.log.warn(`Quarry is ready on http://${config.host}:${config.port} (started in ${Math.round(performance.now() - started)} ms)`);
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  // A configuration mistake is reported as its message alone; anything else with its stack.
  console.error(error instanceof ConfigurationError ? error.message : error instanceof Error ? error.stack : error);
  process.exit(1);
});
