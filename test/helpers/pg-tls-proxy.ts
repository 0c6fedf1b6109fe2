// A PostgreSQL server with TLS, for tests on a machine whose PostgreSQL has none: a proxy that answers PostgreSQL's
// SSLRequest with 'S', terminates TLS with a certificate signed by a throwaway CA, and forwards the decrypted protocol
// to the real server. It can also act as a server whose pg_hba takes only encrypted connections (`plain: 'refuse'`).
// Certificates are made with the openssl command.

import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const SSL_REQUEST = 80877103;

export interface TestCertificates {
  dir: string;
  /** The CA certificate file (PEM). */
  caFile: string;
  /** Server key and certificate (PEM), the certificate for DNS:localhost only. */
  key: string;
  cert: string;
  cleanup(): void;
}

function openssl(args: string[], cwd: string): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
}

export function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version']).status === 0;
}

/** A throwaway CA and a server certificate for `localhost` that it signed. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-tls-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Quarry Test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  writeFileSync(join(dir, 'server.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'server.ext'], dir);
  return {
    dir,
    caFile: join(dir, 'ca.crt'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.crt'), 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A FATAL ErrorResponse as PostgreSQL sends when pg_hba has only `hostssl` lines for the client. */
function noEncryptionError(): Buffer {
  const fields = Buffer.concat([
    Buffer.from('SFATAL\0', 'utf8'),
    Buffer.from('C28000\0', 'utf8'),
    Buffer.from('Mno pg_hba.conf entry for host "127.0.0.1", user "postgres", database "quarry", no encryption\0', 'utf8'),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}

export interface PgTlsProxy {
  port: number;
  /** Connections that were encrypted / plain. */
  counts: { tls: number; plain: number };
  close(): Promise<void>;
}

function splice(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}

export async function startPgTlsProxy(target: { host: string; port: number }, certs: TestCertificates, plain: 'forward' | 'refuse' = 'forward'): Promise<PgTlsProxy> {
  const counts = { tls: 0, plain: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', (first: Buffer) => {
      if (first.length >= 8 && first.readInt32BE(4) === SSL_REQUEST) {
        counts.tls++;
        client.write('S');
        const secure = new TLSSocket(client, { isServer: true, key: certs.key, cert: certs.cert });
        secure.on('error', () => client.destroy());
        splice(secure, connect(target.port, target.host));
        return;
      }
      counts.plain++;
      if (plain === 'refuse') {
        client.end(noEncryptionError());
        return;
      }
      const upstream = connect(target.port, target.host);
      upstream.write(first);
      splice(client, upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    counts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
