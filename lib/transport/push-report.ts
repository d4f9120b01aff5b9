// receive-pack's report held back until the push is announced (both transports). A client learns that
// its push succeeded from the report (`unpack ok`, `ok <ref>`, flush), and many stop reading there
// (libgit2, go-git, JGit), so nothing of the report may reach the client before every process's kept
// answers are invalid. receive-pack writes its report only after every ref of the push was committed,
// so the gate passes git's output through until the report's first byte, then runs `settle` (the
// push's announcement and refresh, lib/transport/git-push.ts `finish`) and only when it has ended sends
// the report and the rest. Progress (side-band 2), errors (side-band 3) and keepalives (an empty
// side-band 1 packet) before the report pass at once, so a long push keeps its client informed.
//
// When `settle` fails, the report is rewritten once git's output has ended: each `ok <ref>` becomes
// `ng <ref> <reason>`, so the client's push fails, naming why, though the refs did move.
//
// Output with no report (the client asked for none, or pushed nothing) is ended only after `settle`.
import { Transform, type TransformCallback } from 'node:stream';

export interface ReportGateOptions {
  /** The output starts with a ref advertisement ending at its flush (SSH); over HTTP it does not. */
  advertisement: boolean;
  /** The push's announcement; runs once, when the report begins or when the output ends without one. */
  settle: () => Promise<void>;
  /** The reason given in each `ng` line when `settle` failed. */
  reason: string;
}

const FLUSH = Buffer.from('0000');
const MAX_PACKET = 65520;

export class ReportGate extends Transform {
  private readonly opts: ReportGateOptions;
  private inAdvertisement: boolean;
  /** Bytes left of the packet being passed through. */
  private skip = 0;
  /** A packet's start not yet classified (its length and first payload byte). */
  private head: Buffer = Buffer.alloc(0);
  /** Set once the report began: the announcement's outcome. */
  private settled: Promise<boolean> | null = null;
  private failed = false;
  /** After a failed announcement: the report and all that follows, rewritten at the end. */
  private held: Buffer[] = [];

  constructor(opts: ReportGateOptions) {
    super();
    this.opts = opts;
    this.inAdvertisement = opts.advertisement;
  }

  /** Runs `settle` once; resolves false when it failed (never rejects). */
  private settle(): Promise<boolean> {
    this.settled ??= this.opts.settle().then(
      () => true,
      () => false,
    );
    return this.settled;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.settled) {
      if (this.failed) this.held.push(chunk);
      else this.push(chunk);
      done();
      return;
    }
    const at = this.reportStart(chunk);
    if (at < 0) {
      done();
      return;
    }
    const rest = Buffer.concat([this.head, chunk.subarray(at)]);
    this.head = Buffer.alloc(0);
    void this.settle().then((ok) => {
      if (ok) this.push(rest);
      else {
        this.failed = true;
        this.held.push(rest);
      }
      done();
    });
  }

  override _flush(done: TransformCallback): void {
    void this.settle().then((ok) => {
      if (!ok && this.held.length === 0 && this.head.length) this.held.push(this.head);
      if (!ok || this.failed) this.push(rejectReport(Buffer.concat(this.held), this.opts.reason));
      else if (this.head.length) this.push(this.head);
      done();
    });
  }

  /**
   * Passes the bytes of `chunk` that come before the report; answers the offset in `chunk` where the
   * report begins (bytes of its first packet may be in `head`), or -1 when it has not begun.
   */
  private reportStart(chunk: Buffer): number {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.push(chunk.subarray(i, i + n));
        this.skip -= n;
        i += n;
        continue;
      }
      // Gather a packet's length and its first payload byte.
      const need = (this.head.length >= 4 && packetLength(this.head) > 4 ? 5 : 4) - this.head.length;
      if (need > 0) {
        const n = Math.min(need, chunk.length - i);
        this.head = Buffer.concat([this.head, chunk.subarray(i, i + n)]);
        i += n;
        if (this.head.length < 4 || (packetLength(this.head) > 4 && this.head.length < 5)) continue;
      }
      const len = packetLength(this.head);
      if (Number.isNaN(len) || (len > 0 && len < 4)) {
        // Not pkt-lines: held from here like a report (git's own output is always pkt-lines).
        return i;
      }
      if (len <= 4) {
        // flush, delimiter, end of response, or an empty packet: no payload
        this.push(this.head);
        this.head = Buffer.alloc(0);
        if (len === 0 && this.inAdvertisement) this.inAdvertisement = false;
        continue;
      }
      const band = this.head[4]!;
      const passes = this.inAdvertisement || band === 2 || band === 3 || (band === 1 && len === 5);
      if (!passes) {
        // The report's first packet: its gathered bytes are in `head`.
        return i;
      }
      this.push(this.head);
      this.skip = len - this.head.length;
      this.head = Buffer.alloc(0);
    }
    return -1;
  }
}

function packetLength(b: Buffer): number {
  const text = b.subarray(0, 4).toString('latin1');
  return /^[0-9a-f]{4}$/i.test(text) ? parseInt(text, 16) : Number.NaN;
}

/** The pkt-lines of `b` (payloads; a flush is an empty payload marked `flush`), and what is left over. */
function packets(b: Buffer): { payload: Buffer; flush: boolean }[] {
  const out: { payload: Buffer; flush: boolean }[] = [];
  let i = 0;
  while (i + 4 <= b.length) {
    const len = packetLength(b.subarray(i));
    if (Number.isNaN(len)) break;
    if (len < 4) {
      out.push({ payload: Buffer.alloc(0), flush: len === 0 });
      i += 4;
      continue;
    }
    if (i + len > b.length) break;
    out.push({ payload: b.subarray(i + 4, i + len), flush: false });
    i += len;
  }
  return out;
}

function packet(payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
}

/**
 * The report of a push whose refs moved but whose announcement failed: every `ok <ref>` becomes
 * `ng <ref> <reason>` (its `option` lines dropped), with or without side-band framing.
 */
export function rejectReport(output: Buffer, reason: string): Buffer {
  const outer = packets(output);
  const sideBand = outer.some((p) => !p.flush && p.payload.length > 0 && p.payload[0]! >= 1 && p.payload[0]! <= 3);
  const rewrite = (report: Buffer): Buffer => {
    const lines: Buffer[] = [];
    for (const p of packets(report)) {
      if (p.flush) {
        lines.push(FLUSH);
        continue;
      }
      const text = p.payload.toString('utf8').replace(/\n$/, '');
      if (text.startsWith('ok ')) lines.push(packet(`ng ${text.slice(3)} ${reason}\n`));
      else if (!text.startsWith('option ')) lines.push(packet(p.payload));
    }
    return Buffer.concat(lines);
  };
  if (!sideBand) return rewrite(output);
  const other: Buffer[] = [];
  const report: Buffer[] = [];
  for (const p of outer) {
    if (p.flush || p.payload.length === 0) continue;
    if (p.payload[0] === 1) report.push(p.payload.subarray(1));
    else other.push(packet(p.payload));
  }
  const inner = rewrite(Buffer.concat(report));
  const framed: Buffer[] = [...other, packet(Buffer.from(`\x02cairn: ${reason}\n`))];
  for (let i = 0; i < inner.length; i += MAX_PACKET - 5)
    framed.push(packet(Buffer.concat([Buffer.from([1]), inner.subarray(i, i + MAX_PACKET - 5)])));
  framed.push(FLUSH);
  return Buffer.concat(framed);
}
