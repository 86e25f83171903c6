// The `extensionTestsPath` entry: VS Code's extension host calls run() and exits with
// 0 when it resolves, 1 when it rejects. Works under code-server and @vscode/test-electron.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import { skipReasonOf } from '../env/skip';

export async function run(): Promise<void> {
  const reportFile = process.env.KEV_HOST_REPORT;
  const resultsFile = process.env.KEV_HOST_RESULTS;
  // The extension host's console reaches the browser unformatted: write the report to a file.
  if (reportFile) {
    fs.writeFileSync(reportFile, '');
    const write = (...args: unknown[]) => fs.appendFileSync(reportFile, util.format(...args) + '\n');
    Mocha.reporters.Base.consoleLog = write;
  }
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 60_000 });
  // Bundled again as test/hostbench/index.ts, the same runner runs the host benchmark there.
  // KEV_HOST_FILES names a subfolder run in a configuration of its own (kubernetes: with the
  // Kubernetes extension installed beside ours).
  // KEV_HOST_ONLY names the files of a smoke run (another Kubernetes release): `activation`.
  const dir = path.join(__dirname, process.env.KEV_HOST_FILES ?? '');
  const only = process.env.KEV_HOST_ONLY ? new Set(process.env.KEV_HOST_ONLY.split(',')) : undefined;
  const wanted = (f: string) => (f.endsWith('.test.js') || f.endsWith('.bench.js')) && (!only || only.has(f.replace(/\.(test|bench)\.js$/, '')));
  for (const f of fs.readdirSync(dir).filter(wanted).sort()) mocha.addFile(path.join(dir, f));
  await new Promise<void>((resolve, reject) => {
    const skipped: { title: string; reason: string }[] = [];
    const runner = mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} host test(s) failed`)) : resolve()));
    const failures: { title: string; error: string }[] = [];
    runner.on('pending', (test) => skipped.push({ title: test.fullTitle(), reason: skipReasonOf(test) }));
    runner.on('fail', (test, err: unknown) => failures.push({ title: test.fullTitle(), error: String((err as Error)?.message ?? err).split('\n')[0] }));
    runner.on('end', () => {
      if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, skipped, failures }));
    });
  });
}
