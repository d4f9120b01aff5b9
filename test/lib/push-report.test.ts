// lib/transport/push-report.ts: receive-pack's output passes until its report begins, the report waits
// for the push's announcement, and a failed announcement turns every `ok` into `ng`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejectReport, ReportGate } from '../../lib/transport/push-report.ts';

const pkt = (s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
};
const band = (n: number, s: string | Buffer) => pkt(Buffer.concat([Buffer.from([n]), typeof s === 'string' ? Buffer.from(s) : s]));
const FLUSH = '0000';
const report = Buffer.concat([
  pkt('unpack ok\n'),
  pkt('ok refs/heads/main\n'),
  pkt('option new-oid abc\n'),
  pkt('ok refs/tags/v1\n'),
  Buffer.from(FLUSH),
]);

/** Feeds `parts` (byte by byte when `bytewise`) and records what comes out before and after settling. */
async function through(parts: Buffer[], opts: { advertisement?: boolean; fail?: boolean; bytewise?: boolean } = {}) {
  let release: () => void = () => undefined;
  let asked = 0;
  const gate = new ReportGate({
    advertisement: opts.advertisement ?? false,
    settle: () => {
      asked++;
      return new Promise<void>((resolve, reject) => {
        release = opts.fail ? () => reject(new Error('down')) : resolve;
      });
    },
    reason: 'not announced',
  });
  const out: Buffer[] = [];
  gate.on('data', (d: Buffer) => out.push(d));
  const ended = new Promise<void>((resolve) => gate.on('end', () => resolve()));
  const all = Buffer.concat(parts);
  if (opts.bytewise) for (let i = 0; i < all.length; i++) gate.write(all.subarray(i, i + 1));
  else for (const p of parts) gate.write(p);
  gate.end();
  await new Promise((resolve) => setImmediate(resolve));
  const before = Buffer.concat(out).toString('latin1');
  release();
  await ended;
  return { before, after: Buffer.concat(out).toString('latin1'), asked };
}

test('side-band: progress and keepalives pass at once, the report waits for the announcement', async () => {
  for (const bytewise of [false, true]) {
    const progress = band(2, 'Resolving deltas\n');
    const keepalive = pkt(Buffer.from([1]));
    const reported = band(1, report);
    const r = await through([progress, keepalive, reported, Buffer.from(FLUSH)], { bytewise });
    assert.is(r.before, Buffer.concat([progress, keepalive]).toString('latin1'), `bytewise ${bytewise}`);
    assert.is(r.after, Buffer.concat([progress, keepalive, reported, Buffer.from(FLUSH)]).toString('latin1'));
    assert.is(r.asked, 1);
  }
});

test('SSH: the advertisement passes, then the report waits', async () => {
  const adv = Buffer.concat([pkt('abc refs/heads/main\0report-status\n'), Buffer.from(FLUSH)]);
  const r = await through([adv, report], { advertisement: true, bytewise: true });
  assert.is(r.before, adv.toString('latin1'));
  assert.is(r.after, Buffer.concat([adv, report]).toString('latin1'));
});

test('no report at all: the output ends only after the announcement', async () => {
  const r = await through([]);
  assert.is(r.asked, 1);
  assert.is(r.before, '');
});

test('a failed announcement: every ok becomes ng with the reason, with and without side-band', async () => {
  const plain = await through([report], { fail: true });
  assert.is(plain.before, '');
  assert.is(
    plain.after,
    Buffer.concat([
      pkt('unpack ok\n'),
      pkt('ng refs/heads/main not announced\n'),
      pkt('ng refs/tags/v1 not announced\n'),
      Buffer.from(FLUSH),
    ]).toString('latin1'),
  );
  const progress = band(2, 'remote: hello\n');
  const banded = await through([progress, band(1, report.subarray(0, 10)), band(1, report.subarray(10)), Buffer.from(FLUSH)], {
    fail: true,
  });
  assert.is(banded.before, progress.toString('latin1'));
  const inner = rejectReport(report, 'not announced');
  assert.ok(banded.after.includes(band(1, inner).toString('latin1')), banded.after);
  assert.ok(banded.after.includes('cairn: not announced'));
  assert.ok(banded.after.endsWith(FLUSH));
});

test.run();
