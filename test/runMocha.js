// Runs one layer's compiled suites (out/test/<layer>/**/*.test.js) with mocha's spec
// reporter, then writes {passed, failed, skipped: [{title, reason}], failures: [{title, error}]}
// to the file given as the
// second argument. A layer's folder may be a subfolder (ui/kubernetes); --exclude=NAME leaves
// out subfolders of that name (run as a layer of their own). --rotate=K/N starts at the K-th of
// N equal parts of the sorted files and wraps around: layers run at the same time (the cluster
// layer against several releases) then reach their heavy and their waiting files at different
// times.
// Usage: node test/runMocha.js <layer> <results.json> [timeoutMs] [--exclude=NAME] [--rotate=K/N]
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { skipReasonOf } = require('../out/test/env/skip.js');

const args = process.argv.slice(2);
const excluded = new Set(args.filter((a) => a.startsWith('--exclude=')).map((a) => a.slice('--exclude='.length)));
const [layer, resultsFile, timeout] = args.filter((a) => !a.startsWith('--'));
const rotate = /^--rotate=(\d+)\/(\d+)$/.exec(args.find((a) => a.startsWith('--rotate=')) ?? '');
const root = path.join(__dirname, '..', 'out', 'test', layer);

function testFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return excluded.has(e.name) ? [] : testFiles(p);
    return e.name.endsWith('.test.js') ? [p] : [];
  }).sort();
}

const mocha = new Mocha({ reporter: 'spec', timeout: Number(timeout ?? 10000), color: process.stdout.isTTY });
const files = testFiles(root);
const offset = rotate ? Math.floor((Number(rotate[1]) * files.length) / Number(rotate[2])) : 0;
for (const f of [...files.slice(offset), ...files.slice(0, offset)]) mocha.addFile(f);
const skipped = [];
const failedTests = [];
mocha.run((failures) => {
  process.exitCode = failures > 0 ? 1 : 0;
}).on('pending', (test) => {
  skipped.push({ title: test.fullTitle(), reason: skipReasonOf(test) });
}).on('fail', (test, err) => {
  failedTests.push({ title: test.fullTitle(), error: String(err?.message ?? err).split('\n')[0] });
}).on('end', function () {
  const { passes, failures } = this.stats;
  fs.writeFileSync(resultsFile, JSON.stringify({ passed: passes, failed: failures, skipped, failures: failedTests }));
});
