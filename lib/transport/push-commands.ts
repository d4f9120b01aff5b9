// The ref updates a receive-pack request asks for, read from its command pkt-lines as the bytes pass
// on to git (both transports: the HTTP request body, the SSH channel). Reading stops at the first
// flush packet, or when the commands exceed a sane size; git itself rejects malformed pkt-lines.
export interface AskedUpdate {
  ref: string;
  before: string;
  after: string;
}

/** Command lists longer than this are not read further (git still receives every byte). */
const MAX_COMMANDS_BYTES = 1024 * 1024;

export class CommandSniffer {
  readonly refs: string[] = [];
  readonly updates: AskedUpdate[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private seen = 0;
  private done = false;

  feed(chunk: Buffer): void {
    if (this.done) return;
    this.seen += chunk.length;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 4) {
      const len = parseInt(this.buf.subarray(0, 4).toString('latin1'), 16);
      if (Number.isNaN(len) || len === 0) {
        this.stop();
        return;
      }
      if (len < 4) {
        this.stop();
        return;
      }
      if (this.buf.length < len) break;
      const line = this.buf.subarray(4, len).toString('utf8').split('\0')[0].trim();
      const [before, after, ref] = line.split(' ');
      if (ref) this.refs.push(ref);
      if (ref && before && after) this.updates.push({ ref, before, after });
      this.buf = this.buf.subarray(len);
    }
    if (this.seen > MAX_COMMANDS_BYTES) this.stop();
  }

  /** Branch names among the refs asked for. */
  branches(): string[] {
    return this.refs.filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length));
  }

  private stop(): void {
    this.done = true;
    this.buf = Buffer.alloc(0);
  }
}
