// A TCP proxy in front of PostgreSQL for outage tests: `open` forwards bytes both ways; `stopped`
// closes every connection and refuses new ones (a PostgreSQL that is down); `frozen` keeps every
// connection and accepts new ones but forwards nothing, closing nothing (a PostgreSQL stopped by
// SIGSTOP). Going back to `open` forwards again, what was held during a freeze included.
import net from 'node:net';

export type ProxyState = 'open' | 'stopped' | 'frozen';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  set(state: ProxyState): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  server: net.Socket;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let state: ProxyState = 'open';
  const pairs = new Set<Pair>();
  const onConnection = (client: net.Socket) => {
    if (state === 'stopped') return client.destroy();
    const server = net.connect(targetPort, targetHost);
    const pair = { client, server };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', drop).on('close', drop);
    server.on('error', drop).on('close', drop);
    client.pipe(server);
    server.pipe(client);
    if (state === 'frozen') freeze(pair);
  };
  // Paused sockets read nothing more: bytes stay in the kernel's buffers, unanswered.
  const freeze = (p: Pair) => {
    p.client.unpipe(p.server);
    p.server.unpipe(p.client);
    p.client.pause();
    p.server.pause();
  };
  const thaw = (p: Pair) => {
    p.client.pipe(p.server);
    p.server.pipe(p.client);
    p.client.resume();
    p.server.resume();
  };
  let listener = net.createServer(onConnection);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as net.AddressInfo).port;
  const closeListener = () => new Promise<void>((resolve) => listener.close(() => resolve()));
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async set(next) {
      if (next === state) return;
      const previous = state;
      state = next;
      if (next === 'stopped') {
        // Nothing listens: connecting is refused (ECONNREFUSED), as with a server that is down.
        for (const p of pairs) {
          p.client.destroy();
          p.server.destroy();
        }
        pairs.clear();
        await closeListener();
        return;
      }
      if (previous === 'stopped') {
        listener = net.createServer(onConnection);
        await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
      }
      for (const p of pairs) (next === 'frozen' ? freeze : thaw)(p);
    },
    async close() {
      for (const p of pairs) {
        p.client.destroy();
        p.server.destroy();
      }
      pairs.clear();
      if (state !== 'stopped') await closeListener();
    },
  };
}
