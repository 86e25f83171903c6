// Runs the host suite (test/host/index.ts, the `extensionTestsPath` contract of
// @vscode/test-electron) inside code-server's real extension host: the workbench gets a
// development payload and reports the extension host's exit code through
// `codeAutomationExit`. The suite writes its report and counts to files we print here.
// Usage: node out/test/env/hostRunner.js <results.json> [suite folder under out/test, default host]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { CodeServer } from './codeServer';
import { repoRoot } from './paths';

/** A whole host run (start, activate, every test) must end within this. */
const HOST_RUN_TIMEOUT_MS = 10 * 60_000;

async function main(resultsFile: string, suite: string): Promise<number> {
  const runDir = path.join(repoRoot, '.run', suite);
  const reportFile = path.join(repoRoot, 'test-results', `${suite}-report.txt`);
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.rmSync(reportFile, { force: true });
  const server = await CodeServer.start({
    runDir,
    workspace: path.join(runDir, 'workspace'),
    smokeTestDriver: true,
    env: { KEV_HOST_RESULTS: path.resolve(resultsFile), KEV_HOST_REPORT: reportFile },
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const exitCode = new Promise<number>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: number) => resolve(code));
    });
    await page.goto(server.workbenchUrl([
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(path.join(repoRoot, 'out', 'test', suite, 'index.js'))],
    ]));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((resolve) => {
      timer = setTimeout(() => {
        console.error(`host tests did not finish within ${HOST_RUN_TIMEOUT_MS / 1000}s`);
        resolve(124);
      }, HOST_RUN_TIMEOUT_MS);
    });
    const code = await Promise.race([exitCode, timeout]);
    clearTimeout(timer);
    if (fs.existsSync(reportFile)) process.stdout.write(fs.readFileSync(reportFile, 'utf8'));
    else console.error(`the host suite wrote no report; see ${path.join(runDir, 'code-server.log')}`);
    return code;
  } finally {
    await browser.close();
    await server.stop();
  }
}

main(process.argv[2] ?? path.join(repoRoot, 'test-results', 'host.json'), process.argv[3] ?? 'host').then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`host runner: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
