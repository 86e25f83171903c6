// Runs the host suite (test/host/index.ts, the `extensionTestsPath` contract of
// @vscode/test-electron) inside code-server's real extension host: the workbench gets a
// development payload and reports the extension host's exit code through
// `codeAutomationExit`. The suite writes its report and counts to files we print here.
// With --kubernetes-extension it runs the suite's kubernetes/ folder in a code-server that
// also has the vendored Kubernetes and YAML extensions (see explorerSetup.ts); when they are
// missing, the suite runs without them and skips its tests, saying why.
// Usage: node out/test/env/hostRunner.js <results.json> [suite folder under out/test, default host] [--kubernetes-extension]
//   [--name=<run>]: its own run folder and report, for a run beside another (another release's)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { CodeServer, type CodeServerOptions } from './codeServer';
import { ControlPlane } from './controlPlane';
import { explorerSetup } from './explorerSetup';
import { repoRoot } from './paths';

/** A whole host run (start, activate, every test) must end within this. */
const HOST_RUN_TIMEOUT_MS = 10 * 60_000;
/**
 * The namespace the Kubernetes extension's explorer lists in the kubernetes configuration: new
 * each run, so its objects and their events are this run's (events expire after an hour).
 */
const HOST_EXPLORER_NAMESPACE = `k8sext-host-${Date.now().toString(36)}`;

/** What the kubernetes configuration adds: the extensions, kubectl, its settings and kubeconfigs. */
function withKubernetesExtension(name: string): Partial<CodeServerOptions> {
  const planeDir = process.env.KEV_CONTROL_PLANE_DIR;
  if (!planeDir) throw new Error('KEV_CONTROL_PLANE_DIR is not set: run the host-k8s layer through `npm test`');
  const dir = path.join(repoRoot, '.run', `${name}-explorer`);
  const setup = explorerSetup(dir, ControlPlane.attach(planeDir).info, HOST_EXPLORER_NAMESPACE);
  return {
    extensions: setup.extensions,
    path: setup.path,
    settings: setup.settings,
    env: { KEV_HOST_FILES: 'kubernetes', KEV_EXPLORER_NAMESPACE: HOST_EXPLORER_NAMESPACE, KEV_EXPLORER_KUBECONFIGS: JSON.stringify(setup.kubeconfigs), ...(setup.missing ? { KEV_VENDOR_MISSING: setup.missing } : {}) },
  };
}

async function main(resultsFile: string, suite: string, kubernetes: boolean, runName: string | undefined): Promise<number> {
  const name = runName ?? (kubernetes ? `${suite}-k8s` : suite);
  const runDir = path.join(repoRoot, '.run', name);
  const reportFile = path.join(repoRoot, 'test-results', `${name}-report.txt`);
  fs.mkdirSync(path.dirname(reportFile), { recursive: true });
  fs.rmSync(reportFile, { force: true });
  const extra = kubernetes ? withKubernetesExtension(name) : {};
  const server = await CodeServer.start({
    runDir,
    workspace: path.join(runDir, 'workspace'),
    smokeTestDriver: true,
    ...extra,
    // The first run's walkthrough would open an editor beside what the host tests open.
    settings: { 'kubernetesEvents.walkthrough.openOnFirstRun': false, ...extra.settings },
    env: { ...extra.env, KEV_HOST_RESULTS: path.resolve(resultsFile), KEV_HOST_REPORT: reportFile },
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

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const runName = process.argv.find((a) => a.startsWith('--name='))?.slice('--name='.length);
main(args[0] ?? path.join(repoRoot, 'test-results', 'host.json'), args[1] ?? 'host', process.argv.includes('--kubernetes-extension'), runName).then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(`host runner: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
