// A raw smart-protocol push client: it writes receive-pack's commands and pack itself and reads the
// answer packet by packet, so a test can stop where a client library stops (at the report's flush)
// and act before the rest of the answer comes.
import http from 'node:http';

export const pkt = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
};

/**
 * Reads pkt-lines from a byte source until `done` says so: a small parser for both the advertisement
 * (ends at a flush) and a side-band report (ends at the inner flush after the ref lines).
 */
export class PktReader {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private ended = false;
  feed(b: Buffer) {
    this.buf = Buffer.concat([this.buf, b]);
    this.waiting?.();
  }
  end() {
    this.ended = true;
    this.waiting?.();
  }
  /** The next packet's payload, or null for a flush. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      if (this.buf.length >= 4) {
        const len = parseInt(this.buf.subarray(0, 4).toString('latin1'), 16);
        if (len === 0) {
          this.buf = this.buf.subarray(4);
          return null;
        }
        if (this.buf.length >= len) {
          const p = this.buf.subarray(4, len);
          this.buf = this.buf.subarray(len);
          return p;
        }
      }
      if (this.ended) throw new Error('the output ended before the report');
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
      this.waiting = null;
    }
  }
  /** The report's lines, read from side-band 1 up to its own flush (and nothing after it). */
  async report(): Promise<string[]> {
    let inner = Buffer.alloc(0);
    for (;;) {
      const p = await this.next();
      if (p === null) throw new Error('the output ended at a flush before the report ended');
      if (p[0] !== 1) continue;
      inner = Buffer.concat([inner, p.subarray(1)]);
      const lines: string[] = [];
      for (let i = 0; i + 4 <= inner.length; ) {
        const len = parseInt(inner.subarray(i, i + 4).toString('latin1'), 16);
        if (len === 0) return lines;
        if (i + len > inner.length) break;
        lines.push(
          inner
            .subarray(i + 4, i + len)
            .toString('utf8')
            .trim(),
        );
        i += len;
      }
    }
  }
}

/** A push's request body: one command for refs/heads/main (report-status, side-band-64k) and its pack. */
export const commands = (old: string, sha: string, pack: Buffer) =>
  Buffer.concat([pkt(`${old} ${sha} refs/heads/main\0report-status side-band-64k agent=raw-test\n`), Buffer.from('0000'), pack]);

export interface RawPush {
  status: number;
  /** The answer, read packet by packet (ends when the server ends it). */
  output: PktReader;
}

/**
 * POSTs `body` to `{repoUrl}/git-receive-pack` with Basic credentials. With `beforeLast`, the body's
 * last 20 bytes (the pack's checksum) are held until it has ended, so a test can change the world
 * while receive-pack waits for them.
 */
export function rawHttpPush(repoUrl: string, creds: [string, string], body: Buffer, beforeLast?: () => Promise<void>): Promise<RawPush> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${repoUrl}/git-receive-pack`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-git-receive-pack-request',
        'Transfer-Encoding': 'chunked',
        Authorization: `Basic ${Buffer.from(`${creds[0]}:${creds[1]}`).toString('base64')}`,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const output = new PktReader();
      res.on('data', (d: Buffer) => output.feed(d));
      res.on('end', () => output.end());
      res.on('error', () => output.end());
      resolve({ status: res.statusCode ?? 0, output });
    });
    if (!beforeLast) {
      req.end(body);
      return;
    }
    req.write(body.subarray(0, body.length - 20));
    beforeLast().then(() => req.end(body.subarray(body.length - 20)), reject);
  });
}
