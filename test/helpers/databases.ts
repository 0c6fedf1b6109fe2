// Throwaway databases on the machine's real PostgreSQL and MariaDB, one per test server, dropped afterwards.

import pg from 'pg';
import { createConnection } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';

export const PG = { host: process.env.QUARRY_TEST_PG_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_PG_PORT ?? 5432), user: process.env.QUARRY_TEST_PG_USER ?? 'postgres', password: process.env.QUARRY_TEST_PG_PASSWORD };
export const MYSQL = { host: process.env.QUARRY_TEST_MYSQL_HOST ?? '127.0.0.1', port: Number(process.env.QUARRY_TEST_MYSQL_PORT ?? 3306), user: process.env.QUARRY_TEST_MYSQL_USER ?? 'root', password: process.env.QUARRY_TEST_MYSQL_PASSWORD ?? '' };

export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function createPgDatabase(prefix = 'quarry_t'): Promise<{ name: string; drop(): Promise<void> }> {
  const name = uniqueName(prefix);
  const admin = new pg.Client({ ...PG, database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    name,
    async drop() {
      const c = new pg.Client({ ...PG, database: 'postgres' });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createMysqlDatabase(prefix = 'quarry_t'): Promise<{ name: string; drop(): Promise<void> }> {
  const name = uniqueName(prefix);
  const admin = await createConnection({ ...MYSQL });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await admin.end();
  return {
    name,
    async drop() {
      const c = await createConnection({ ...MYSQL });
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}
