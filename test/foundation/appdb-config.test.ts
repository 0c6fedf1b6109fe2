// App-DB configuration: TLS options of MB_DB_CONNECTION_URI (PostgreSQL and MySQL/MariaDB forms, as Metabase's JDBC
// drivers read them) reach the driver options; real connections with each PostgreSQL sslmode, to the machine's
// PostgreSQL (no TLS) and through a TLS-terminating proxy in front of it; the pool size variable.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ConfigurationError, loadConfig, type RemoteAppDbConfig } from '../../src/config.js';
import { mysqlClientOptions, pgClientOptions } from '../../src/appdb/client-options.js';
import { startServer, setupAdmin, appDbKinds, ADMIN } from '../helpers/server.js';
import { createMysqlDatabase, createPgDatabase, PG, MYSQL } from '../helpers/databases.js';
import { hasOpenssl, makeCertificates, startPgTlsProxy, type TestCertificates } from '../helpers/pg-tls-proxy.js';

function remote(env: Record<string, string>): RemoteAppDbConfig {
  const config = loadConfig(env).appDb;
  assert.notEqual(config.type, 'sqlite');
  return config as RemoteAppDbConfig;
}

const tlsOf = (uri: string) => remote({ MB_DB_CONNECTION_URI: uri }).tls;

describe('MB_DB_CONNECTION_URI TLS options → driver options', () => {
  test('PostgreSQL: sslmode, ssl=true (verify-full, as the JDBC driver), NonValidatingFactory, default prefer', () => {
    for (const mode of ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']) {
      assert.equal(tlsOf(`postgres://u@db.example.com/q?sslmode=${mode}`).mode, mode);
    }
    assert.equal(tlsOf('postgres://u@h/q?sslmode=REQUIRE').mode, 'require');
    assert.equal(tlsOf('jdbc:postgresql://h:5432/q?ssl=true').mode, 'verify-full');
    assert.equal(tlsOf('jdbc:postgresql://h:5432/q?ssl=true&sslmode=verify-full').mode, 'verify-full');
    assert.equal(tlsOf('jdbc:postgresql://h:5432/q?ssl=true&sslmode=require').mode, 'require', 'sslmode wins over ssl');
    assert.equal(tlsOf('jdbc:postgresql://h/q?ssl=false').mode, 'disable');
    assert.equal(tlsOf('postgres://h/q?user=u&password=p&ssl=true&sslfactory=org.postgresql.ssl.NonValidatingFactory').mode, 'require');
    assert.equal(tlsOf('postgres://h/q').mode, 'prefer', "the JDBC driver's default");
    assert.equal(remote({ MB_DB_TYPE: 'postgres', MB_DB_HOST: 'h' }).tls.mode, 'prefer', 'field by field too');
    assert.deepEqual(tlsOf('postgres://h/q?sslmode=verify-ca&sslrootcert=/etc/ca.pem').rootCert, { file: '/etc/ca.pem' });
    assert.equal(tlsOf('postgres://h/q?sslmode=verify-full&sslrootcert=system').rootCert, undefined, "system: Node's CAs");
  });

  test('MySQL/MariaDB: sslMode (both connectors), useSSL (verified, as MariaDB Connector/J), trustServerCertificate; default none', () => {
    const cases: Array<[string, string]> = [
      ['sslMode=DISABLED', 'disable'],
      ['sslMode=disable', 'disable'],
      ['sslMode=PREFERRED', 'prefer'],
      ['sslMode=REQUIRED', 'require'],
      ['sslMode=trust', 'require'],
      ['sslMode=VERIFY_CA', 'verify-ca'],
      ['sslMode=verify-ca', 'verify-ca'],
      ['sslMode=VERIFY_IDENTITY', 'verify-full'],
      ['sslMode=verify-full', 'verify-full'],
      ['useSSL=true', 'verify-full'],
      ['useSsl=true', 'verify-full'],
      ['ssl=true', 'verify-full'],
      ['useSSL=false', 'disable'],
      ['useSSL=true&trustServerCertificate=true', 'require'],
      ['useSSL=true&verifyServerCertificate=false', 'require'],
      ['useSSL=true&disableSslHostnameVerification=true', 'verify-ca'],
      ['requireSSL=true', 'require'],
      ['user=root', 'disable'],
    ];
    for (const [query, mode] of cases) assert.equal(tlsOf(`jdbc:mysql://h:3306/q?${query}`).mode, mode, query);
    assert.equal(remote({ MB_DB_TYPE: 'mysql', MB_DB_HOST: 'h' }).tls.mode, 'disable');
    assert.deepEqual(tlsOf('mysql://h/q?useSSL=true&serverSslCert=/etc/ca.pem').rootCert, { file: '/etc/ca.pem' });
  });

  test('unknown values and unknown TLS options stop start-up with a message naming them', () => {
    const refused: Array<[string, RegExp]> = [
      ['postgres://h/q?sslmode=bogus', /sslmode=bogus is not supported; sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full/],
      ['postgres://h/q?ssl=yes', /ssl=yes is not supported; ssl must be true or false/],
      ['postgres://h/q?ssl=true&sslfactory=com.example.Factory', /sslfactory=com.example.Factory is not supported/],
      ['postgres://h/q?sslhostnameverifier=x', /the PostgreSQL option sslhostnameverifier is not supported/],
      ['mysql://h/q?sslMode=sometimes', /sslMode=sometimes is not supported/],
      ['mysql://h/q?useSSL=maybe', /useSSL=maybe is not supported; useSSL must be true or false/],
      ['mysql://h/q?useSSL=true&trustCertificateKeyStoreUrl=file:/ks', /the MySQL\/MariaDB option trustCertificateKeyStoreUrl is not supported/],
      ['mysql://h/q?sslMode=allow', /sslMode=allow is not supported/],
    ];
    for (const [uri, message] of refused) {
      assert.throws(() => loadConfig({ MB_DB_CONNECTION_URI: uri }), (e: unknown) => e instanceof ConfigurationError && message.test((e as Error).message), uri);
    }
  });

  test('pgClientOptions: the TLS setting per mode, the CA file, the host-name check, the pool size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-ca-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
      const options = (uri: string, env: Record<string, string> = {}) => pgClientOptions(remote({ MB_DB_CONNECTION_URI: uri, ...env }));
      assert.deepEqual(options('postgres://h/q?sslmode=disable').first.ssl, false);
      assert.equal(options('postgres://h/q?sslmode=disable').fallback, null);
      assert.deepEqual(options('postgres://h/q?sslmode=require').first.ssl, { rejectUnauthorized: false });
      assert.equal(options('postgres://h/q?sslmode=require').fallback, null, 'require never falls back to plain');
      const prefer = options('postgres://h/q?sslmode=prefer');
      assert.deepEqual([prefer.first.ssl, prefer.fallback?.ssl], [{ rejectUnauthorized: false }, false]);
      const allow = options('postgres://h/q?sslmode=allow');
      assert.deepEqual([allow.first.ssl, allow.fallback?.ssl], [false, { rejectUnauthorized: false }]);
      const full = options(`jdbc:postgresql://h/q?ssl=true&sslmode=verify-full&sslrootcert=${ca}`).first.ssl as Record<string, unknown>;
      assert.equal(full.rejectUnauthorized, true);
      assert.match(String(full.ca), /BEGIN CERTIFICATE/);
      assert.equal(full.checkServerIdentity, undefined, 'verify-full keeps the host-name check');
      const verifyCa = options(`postgres://h/q?sslmode=verify-ca&sslrootcert=${ca}`).first.ssl as Record<string, unknown>;
      assert.equal(verifyCa.rejectUnauthorized, true);
      assert.equal(typeof verifyCa.checkServerIdentity, 'function', 'verify-ca skips the host-name check');
      assert.throws(() => options('postgres://h/q?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem'), /can't read the root certificate file "\/nonexistent\/ca.pem" \(ENOENT\)/);
      const pooled = options('postgres://u:p@h:6543/q?sslmode=disable', { MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: '7' }).first;
      assert.deepEqual({ ...pooled }, { host: 'h', port: 6543, database: 'q', user: 'u', password: 'p', max: 7, ssl: false });
      assert.equal(pgClientOptions(remote({ MB_DB_TYPE: 'postgres', MB_DB_HOST: 'h', MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: '3' })).first.max, 3);
      assert.equal(pgClientOptions(remote({ MB_DB_TYPE: 'postgres', MB_DB_HOST: 'h' })).first.max, 15, 'default 15');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('mysqlClientOptions: verifyIdentity for verify-full only; CA inline or from a file; the pool size', () => {
    const options = (uri: string, env: Record<string, string> = {}) => mysqlClientOptions(remote({ MB_DB_CONNECTION_URI: uri, ...env }));
    assert.equal(options('mysql://h/q').first.ssl, undefined);
    assert.deepEqual(options('mysql://h/q?sslMode=REQUIRED').first.ssl, { rejectUnauthorized: false });
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    const full = options(`mysql://h/q?useSSL=true&serverSslCert=${encodeURIComponent(pem)}`).first.ssl as Record<string, unknown>;
    assert.deepEqual(full, { rejectUnauthorized: true, ca: pem, verifyIdentity: true });
    const ca = options('mysql://h/q?sslMode=VERIFY_CA').first.ssl as Record<string, unknown>;
    assert.deepEqual(ca, { rejectUnauthorized: true });
    const preferred = options('mysql://h/q?sslMode=PREFERRED');
    assert.deepEqual([preferred.first.ssl, preferred.fallback?.ssl], [{ rejectUnauthorized: false }, undefined]);
    assert.equal(options('mysql://h/q', { MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: '4' }).first.connectionLimit, 4);
  });

  test('MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE must be a positive integer', () => {
    for (const bad of ['0', '-2', '2.5', 'lots']) {
      assert.throws(() => loadConfig({ MB_DB_TYPE: 'postgres', MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: bad }), /MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE must be a (positive integer|number)/, bad);
    }
  });
});

const withPostgres = appDbKinds().includes('postgres');
/** The MariaDB checks run with the other external app DBs (QUARRY_TEST_APPDBS=sqlite leaves both out). */
const withMysql = withPostgres || appDbKinds().includes('mysql');

describe('PostgreSQL app DB over each sslmode (real connections)', { skip: !withPostgres }, () => {
  let db: { name: string; drop(): Promise<void> };
  let dir: string;
  let certs: TestCertificates | null = null;
  const password = PG.password ? `:${encodeURIComponent(PG.password)}` : '';
  const uri = (host: string, port: number, query: string) => `postgres://${PG.user}${password}@${host}:${port}/${db.name}?${query}`;

  async function startsAndWorks(connectionUri: string): Promise<void> {
    const t = await startServer('postgres', {}, { MB_DB_CONNECTION_URI: connectionUri, MB_DB_FILE: join(dir, 'quarry.db') });
    try {
      assert.equal(t.ctx.dialect, 'postgres');
      const props = await t.anon.get('/api/session/properties');
      if (!props.body['has-user-setup']) await setupAdmin(t);
      assert.equal((await t.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).status, 200);
    } finally {
      await t.server.close();
    }
  }

  before(async () => {
    db = await createPgDatabase();
    dir = mkdtempSync(join(tmpdir(), 'quarry-tls-'));
    if (hasOpenssl()) certs = makeCertificates();
  });
  after(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
    certs?.cleanup();
  });

  test('a server without TLS: disable, allow and prefer connect; require and ssl=true stop start-up saying why', async () => {
    for (const query of ['sslmode=disable', 'sslmode=prefer', 'sslmode=allow', '']) await startsAndWorks(uri(PG.host, PG.port, query));
    await assert.rejects(
      startServer('postgres', {}, { MB_DB_CONNECTION_URI: uri(PG.host, PG.port, 'sslmode=require'), MB_DB_FILE: join(dir, 'quarry.db') }),
      (e: unknown) =>
        e instanceof ConfigurationError &&
        /The PostgreSQL app database at .* does not accept TLS connections, but sslmode=require requires TLS/.test(e.message),
    );
    await assert.rejects(
      startServer('postgres', {}, { MB_DB_CONNECTION_URI: `jdbc:${uri(PG.host, PG.port, 'ssl=true').replace('postgres://', 'postgresql://')}`, MB_DB_FILE: join(dir, 'quarry.db') }),
      /does not accept TLS connections, but ssl=true requires TLS/,
    );
  });

  test('a server with TLS: require encrypts; verify-full needs the CA and the host name; verify-ca only the CA', async (t) => {
    if (!certs) return t.skip('no openssl to make certificates');
    const proxy = await startPgTlsProxy({ host: PG.host, port: PG.port }, certs);
    try {
      await startsAndWorks(uri('127.0.0.1', proxy.port, 'sslmode=require'));
      assert.ok(proxy.counts.tls > 0);
      assert.equal(proxy.counts.plain, 0, 'every connection was encrypted');
      await startsAndWorks(uri('localhost', proxy.port, `sslmode=verify-full&sslrootcert=${certs.caFile}`));
      await startsAndWorks(uri('localhost', proxy.port, `ssl=true&sslrootcert=${certs.caFile}`));
      await startsAndWorks(uri('127.0.0.1', proxy.port, `sslmode=verify-ca&sslrootcert=${certs.caFile}`));
      await startsAndWorks(uri('127.0.0.1', proxy.port, 'ssl=true&sslfactory=org.postgresql.ssl.NonValidatingFactory'));
      await startsAndWorks(uri('127.0.0.1', proxy.port, 'sslmode=prefer'));
      assert.equal(proxy.counts.plain, 0, 'prefer took TLS when offered');
      const env = (query: string, host = 'localhost') => ({ MB_DB_CONNECTION_URI: uri(host, proxy.port, query), MB_DB_FILE: join(dir, 'quarry.db') });
      await assert.rejects(
        startServer('postgres', {}, env('sslmode=verify-full')),
        (e: unknown) =>
          e instanceof ConfigurationError &&
          /presented a TLS certificate that was refused under sslmode=verify-full: .*\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)\. Name the CA that signed it \(sslrootcert=<file>\)/.test(e.message),
      );
      await assert.rejects(
        startServer('postgres', {}, env(`sslmode=verify-full&sslrootcert=${certs.caFile}`, '127.0.0.1')),
        /refused under sslmode=verify-full: .*\(ERR_TLS_CERT_ALTNAME_INVALID\)\. Connect by a host name the certificate names, or check only the CA \(sslmode=verify-ca\)/,
      );
    } finally {
      await proxy.close();
    }
  });

  test('a server that takes only TLS: allow falls back to it, disable is refused', async (t) => {
    if (!certs) return t.skip('no openssl to make certificates');
    const proxy = await startPgTlsProxy({ host: PG.host, port: PG.port }, certs, 'refuse');
    try {
      await startsAndWorks(uri('127.0.0.1', proxy.port, 'sslmode=allow'));
      assert.ok(proxy.counts.tls > 0);
      await assert.rejects(startServer('postgres', {}, { MB_DB_CONNECTION_URI: uri('127.0.0.1', proxy.port, 'sslmode=disable'), MB_DB_FILE: join(dir, 'quarry.db') }), /no encryption/);
    } finally {
      await proxy.close();
    }
  });

  test('MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE caps the connections one instance opens', async () => {
    const server = await startServer('postgres', { MB_APPLICATION_DB_MAX_CONNECTION_POOL_SIZE: '2' }, { MB_DB_CONNECTION_URI: uri(PG.host, PG.port, 'sslmode=disable'), MB_DB_FILE: join(dir, 'quarry.db') });
    const check = new pg.Client({ ...PG, database: 'postgres' });
    await check.connect();
    const connections = async () =>
      (await check.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [db.name])).rows[0].n as number;
    try {
      const admin = (await server.anon.post('/api/session', { username: ADMIN.email, password: ADMIN.password })).body.id;
      const client = server.anon.withSession(admin);
      let most = 0;
      const load = Promise.all(Array.from({ length: 40 }, (_, i) => client.get('/api/user', { query: { query: `x${i}` } })));
      const sample = (async () => {
        for (let i = 0; i < 20; i++) {
          most = Math.max(most, await connections());
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const answers = await load;
      await sample;
      assert.ok(answers.every((a) => a.status === 200));
      assert.ok(most >= 1 && most <= 2, `at most 2 connections, saw ${most}`);
    } finally {
      await check.end();
      await server.server.close();
    }
  });
});

describe('MariaDB app DB TLS options (real connections to a server without TLS)', { skip: !withMysql }, () => {
  test('sslMode=PREFERRED connects without TLS; useSSL=true stops start-up saying why', async () => {
    const db = await createMysqlDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'quarry-tls-'));
    const base = `mysql://${MYSQL.user}${MYSQL.password ? `:${encodeURIComponent(MYSQL.password)}` : ''}@${MYSQL.host}:${MYSQL.port}/${db.name}`;
    try {
      const t = await startServer('mysql', {}, { MB_DB_CONNECTION_URI: `${base}?sslMode=PREFERRED`, MB_DB_FILE: join(dir, 'quarry.db') });
      try {
        assert.equal(t.ctx.dialect, 'mysql');
        assert.equal((await t.anon.get('/api/health')).status, 200);
      } finally {
        await t.server.close();
      }
      await assert.rejects(
        startServer('mysql', {}, { MB_DB_CONNECTION_URI: `jdbc:${base}?useSSL=true`, MB_DB_FILE: join(dir, 'quarry.db') }),
        /The MySQL\/MariaDB app database at .* does not accept TLS connections, but useSSL=true requires TLS/,
      );
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
