// A TCP proxy in front of PostgreSQL (127.0.0.1:5432 or the test server's), for faults a network or a
// server would cause: connections cut, new ones refused. Each connection is known by the parameters
// of its startup message (`application_name`: the clock's connection is `cairn-clock`), so a fault
// can hit the clock alone, or every connection.
import net from 'node:net';

export type Params = Record<string, string>;
export type Match = (params: Params) => boolean;

export interface DbProxy {
  port: number;
  /** `url` with its host and port pointed at the proxy. */
  via(url: string): string;
  /** Closes the open connections that match (all without a matcher). */
  cut(match?: Match): void;
  /** New connections that match are closed once their startup message names them; null admits all again. */
  refuse(match: Match | null): void;
  close(): Promise<void>;
}

export const everyConnection: Match = () => true;
export const clockConnection: Match = (p) => p.application_name === 'cairn-clock';

/** Parameters of a startup message (length, protocol 3.0, then name/value pairs), or null if not one. */
function startupParams(b: Buffer): Params | null {
  if (b.length < 8) return null;
  const len = b.readInt32BE(0);
  if (b.readInt32BE(4) !== 196608 || b.length < len) return null;
  const fields = b.subarray(8, len).toString('utf8').split('\0');
  const params: Params = {};
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]) params[fields[i]!] = fields[i + 1]!;
  return params;
}

export async function startDbProxy(target: { host: string; port: number }): Promise<DbProxy> {
  const open = new Map<net.Socket, { params: Params; upstream: net.Socket }>();
  let refusing: Match | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    let first: Buffer = Buffer.alloc(0);
    let known = false;
    const kill = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
    };
    client.on('error', kill);
    upstream.on('error', kill);
    client.on('close', kill);
    upstream.on('close', kill);
    upstream.on('data', (d: Buffer) => client.write(d));
    client.on('data', (d: Buffer) => {
      if (known) {
        upstream.write(d);
        return;
      }
      first = Buffer.concat([first, d]);
      // An SSLRequest (8 bytes) would come first with TLS; the tests use none.
      if (first.length < 8 || first.length < first.readInt32BE(0)) return;
      known = true;
      const params = startupParams(first) ?? {};
      if (refusing?.(params)) return kill();
      open.set(client, { params, upstream });
      upstream.write(first);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut(match = everyConnection) {
      for (const [client, { params, upstream }] of [...open]) {
        if (!match(params)) continue;
        client.destroy();
        upstream.destroy();
        open.delete(client);
      }
    },
    refuse(match) {
      refusing = match;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, { upstream }] of open) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
