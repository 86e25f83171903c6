// Runs one layer's compiled suites (out/test/<layer>/**/*.test.js) with mocha's spec
// reporter, then writes {passed, failed, pending} to the file given as the second argument.
// Usage: node test/runMocha.js <layer> <results.json> [timeoutMs]
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const [layer, resultsFile, timeout] = process.argv.slice(2);
const root = path.join(__dirname, '..', 'out', 'test', layer);

function testFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.js') ? [p] : [];
  }).sort();
}

const mocha = new Mocha({ reporter: 'spec', timeout: Number(timeout ?? 10000), color: process.stdout.isTTY });
for (const f of testFiles(root)) mocha.addFile(f);
mocha.run((failures) => {
  process.exitCode = failures > 0 ? 1 : 0;
}).on('end', function () {
  const { passes, failures, pending } = this.stats;
  fs.writeFileSync(resultsFile, JSON.stringify({ passed: passes, failed: failures, pending }));
});
