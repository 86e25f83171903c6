// `npm test`: sets up what is missing, then runs every layer and ends with one line
// `N passed, N failed` over all of them (`, N skipped` when a test was skipped; each skipped
// test is listed by name with its reason). Exits non-zero when anything failed.
//   typecheck, lint            one check each
//   unit                       plain Node, injected clocks
//   conformance                our correlator, age format and protobuf decoder against client-go and apimachinery, built from the Go module proxy
//   cluster                    against the real control plane started here, with KWOK's
//                              simulated nodes and the lively cluster seeded (seedCluster.ts)
//   host                       mocha inside code-server's real extension host
//   host-k8s                   the same, with the Kubernetes extension installed beside ours
//   ui                         the workbench driven in Chromium, screenshots in test-results/
//   ui-k8s                     the same, with the Kubernetes extension's Cluster Explorer
// The -k8s layers need the vendored .vsix files (../shared/vendor, or KEV_VENDOR_DIR); without
// them their tests are skipped, by name, with the reason.
// Options: --only=unit,cluster  runs a subset (host and ui include their -k8s layer);
// --skip-setup assumes everything is installed.
// Kubernetes releases (test/env/versions.sh): every layer runs against the default release.
// --k8s=<version> runs the cluster layer and a host smoke test against that release instead;
// --k8s=all (what .ci/run asks for) runs every layer against the default, and the cluster
// layer and the host smoke test against each other release of KUBE_RELEASES. Each release
// has its own control plane, and its tests use that release's kubectl. The order, for time on
// two cores: typecheck, lint, unit and conformance two at a time, the control planes starting
// beside them; every release's cluster layer at the same time, each release's host tests after
// its own; then the UI layers alone.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const args = process.argv.slice(2);
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;
/** A -k8s layer also runs when its base layer is asked for. */
const BASE_LAYER = { 'host-k8s': 'host', 'ui-k8s': 'ui' };
const wants = (layer) => !only || only.has(layer) || (BASE_LAYER[layer] !== undefined && only.has(BASE_LAYER[layer]));
const clusterLayers = ['cluster', 'host', 'host-k8s', 'ui', 'ui-k8s'];
const needsCluster = clusterLayers.some(wants);
const needsVsCode = ['host', 'host-k8s', 'ui', 'ui-k8s'].some(wants);

/** A variable of test/env/versions.sh. */
function versionsSh(name) {
  const r = spawnSync('bash', ['-c', `. "${path.join(__dirname, 'env', 'versions.sh')}" && echo "$${name}"`], { env: { ...process.env, KEV_K8S_VERSION: '' } });
  return r.stdout.toString().trim();
}
const defaultRelease = versionsSh('KUBE_DEFAULT_VERSION');
const k8sArg = args.find((a) => a.startsWith('--k8s='))?.slice('--k8s='.length);
/** The releases other than the default to run the cluster layer and the host smoke test against. */
const otherReleases = k8sArg === undefined ? [] : k8sArg === 'all' ? versionsSh('KUBE_RELEASES').split(/\s+/).filter((v) => v && v !== defaultRelease) : k8sArg.split(',').filter((v) => v !== defaultRelease);
/** Whether the default release runs: always, unless --k8s names other releases only. */
const runsDefault = k8sArg === undefined || k8sArg === 'all' || k8sArg.split(',').includes(defaultRelease);
/** The layers another release runs: the cluster layer, and the host layer's activation tests. */
const releaseLayers = ['cluster', 'host'].filter(wants);

const resultsDir = path.join(root, 'test-results');
const planeDir = path.join(root, '.run', 'control-plane');
const totals = { passed: 0, failed: 0 };
/** Every skipped test: { layer, title, reason }. */
const skipped = [];
/** Every failed test: { layer, title, error }, named again at the end where a cut log still shows them. */
const failedTests = [];
const summary = [];

/** When the current layer started (its banner), for the time each layer takes in the summary. */
let layerStarted = Date.now();

function banner(text) {
  layerStarted = Date.now();
  console.log(`\n━━ ${text} ${'━'.repeat(Math.max(0, 70 - text.length))}`);
}

/** Adds a layer's counts; `skips` are its skipped tests, [{title, reason}]; `since`, when it started. */
function record(layer, passed, failed, skips = [], note = '', since = layerStarted) {
  totals.passed += passed;
  totals.failed += failed;
  for (const s of skips) skipped.push({ layer, ...s });
  const seconds = Math.round((Date.now() - since) / 1000);
  summary.push(`${layer.padEnd(12)} ${`${seconds}s`.padStart(5)}  ${passed} passed, ${failed} failed${skips.length ? `, ${skips.length} skipped` : ''}${note ? `  (${note})` : ''}`);
}

/** The skipped tests by name, under each reason. */
function printSkipped(list) {
  const byReason = new Map();
  for (const s of list) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s]);
  for (const [reason, tests] of byReason) {
    console.log(`skipped: ${reason}`);
    for (const t of tests) console.log(`  - ${t.layer ? `${t.layer}: ` : ''}${t.title}`);
  }
}

/** Runs a command with inherited output; returns its exit code. */
function run(cmd, cmdArgs, options = {}) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...options });
  if (r.error) console.error(`${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

/** A mocha layer: runs it in a child process and adds its counts. `dir` is its folder under out/test. */
function mochaLayer(layer, env = {}, timeoutMs = 10000, dir = layer, extra = []) {
  banner(layer);
  const results = path.join(resultsDir, `${layer}.json`);
  fs.rmSync(results, { force: true });
  const code = run(process.execPath, [path.join(__dirname, 'runMocha.js'), dir, results, String(timeoutMs), ...extra], { env: { ...process.env, ...env } });
  countResults(layer, results, code);
}

/**
 * A step run beside others: its output is kept and printed whole, under its banner, when it
 * ends, so the steps' lines do not interleave. `results` is a mocha layer's report file, or
 * undefined for a check that counts as one test (passes when the command exits 0).
 */
function runBeside(layer, cmd, cmdArgs, env, results) {
  const started = Date.now();
  if (results) fs.rmSync(results, { force: true });
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', (e) => output.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      banner(`${layer} (ran beside others)`);
      process.stdout.write(Buffer.concat(output));
      if (results) countResults(layer, results, code ?? 1, started);
      else record(layer, code === 0 ? 1 : 0, code === 0 ? 0 : 1, [], '', started);
      resolve();
    });
  });
}

/** A mocha layer run beside others. */
function mochaLayerBeside(layer, env, timeoutMs, dir, extra = []) {
  const results = path.join(resultsDir, `${layer}.json`);
  return runBeside(layer, process.execPath, [path.join(__dirname, 'runMocha.js'), dir, results, String(timeoutMs), ...extra], env, results);
}

/** Runs `steps` (functions returning a promise), at most `width` at a time, in the order given. */
async function inPool(steps, width) {
  const queue = [...steps];
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, async () => {
    while (queue.length > 0) await queue.shift()();
  }));
}

function countResults(layer, results, code, since = layerStarted) {
  const record_ = (passed, failed, skips = [], note = '') => record(layer, passed, failed, skips, note, since);
  if (!fs.existsSync(results)) {
    record_(0, 1, [], `ended with code ${code} before reporting`);
    return;
  }
  const r = JSON.parse(fs.readFileSync(results, 'utf8'));
  const skips = r.skipped ?? [];
  if (skips.length > 0) printSkipped(skips);
  for (const f of r.failures ?? []) failedTests.push({ layer, ...f });
  if (r.passed + r.failed + skips.length === 0) {
    record_(0, 1, skips, 'no test ran');
    return;
  }
  // A layer that reported no failure but exited non-zero (a crash after its report, an
  // uncaught error in a hook) still failed.
  if (code !== 0 && r.failed === 0) {
    record_(r.passed, 1, skips, `exited with code ${code} after reporting no failure`);
    return;
  }
  record_(r.passed, r.failed, skips);
}

function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return true;
  banner('npm ci');
  return run('npm', ['ci', '--no-audit', '--no-fund']) === 0;
}

/** The folders of the control planes running now. */
const planes = new Set();
function stopControlPlane(dir) {
  for (const d of dir ? [dir] : [...planes]) {
    if (!planes.delete(d)) continue;
    spawnSync(process.execPath, [path.join(root, 'out', 'test', 'env', 'controlPlaneCli.js'), 'stop', d], { stdio: 'inherit' });
  }
}

/**
 * Starts the seeded control plane of `release` in `dir`, beside other steps: its output is
 * printed whole under its banner when it is up. False (and says so) when it did not start.
 */
function startControlPlane(dir, release) {
  planes.add(dir);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'out', 'test', 'env', 'controlPlaneCli.js'), 'start', dir, '--seed'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KEV_K8S_VERSION: release } });
    const output = [];
    child.stdout.on('data', (d) => output.push(d));
    child.stderr.on('data', (d) => output.push(d));
    child.on('error', (e) => output.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code) => {
      banner(`control plane: Kubernetes ${release}`);
      process.stdout.write(Buffer.concat(output));
      if (code !== 0) stopControlPlane(dir);
      resolve(code === 0);
    });
  });
}

/**
 * Builds, when missing, the control plane of each other release, one at a time (a build takes
 * both cores); returns those built, and records the layers of the others as failed.
 */
function buildOtherReleases(releases) {
  const built = [];
  for (const release of releases) {
    const dir = path.join(root, '.run', `control-plane-${release}`);
    const env = { KEV_K8S_VERSION: release, KEV_CONTROL_PLANE_DIR: dir, KUBECONFIG: path.join(dir, 'admin.kubeconfig') };
    if (!args.includes('--skip-setup')) {
      banner(`setup: Kubernetes ${release}`);
      if (run('bash', [path.join(__dirname, 'env', 'setup.sh'), 'control-plane'], { env: { ...process.env, KEV_K8S_VERSION: release } }) !== 0) {
        for (const layer of releaseLayers) record(`${layer}@${release}`, 0, 1, [], 'the control plane did not build');
        continue;
      }
    }
    built.push({ release, dir, env });
  }
  return built;
}

/** Starts the other releases' planes, all at once; returns those that came up, and records the layers of the others as failed. */
async function startOtherReleases(built) {
  const up = await Promise.all(built.map((r) => startControlPlane(r.dir, r.release)));
  return built.filter((r, i) => {
    if (!up[i]) for (const layer of releaseLayers) record(`${layer}@${r.release}`, 0, 1, [], 'control plane did not start');
    return up[i];
  });
}

/** The host suite in code-server's extension host, beside other layers; `extra` picks a configuration, or its own run folder (--name). */
function hostLayerBeside(layer, env, extra = []) {
  const results = path.join(resultsDir, `${layer}.json`);
  return runBeside(layer, process.execPath, [path.join(root, 'out', 'test', 'env', 'hostRunner.js'), results, 'host', ...extra], env, results);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopControlPlane();
    process.exit(130);
  });
}

async function main() {
  fs.mkdirSync(resultsDir, { recursive: true });
  if (!ensureDependencies()) return record('setup', 0, 1, [], 'npm ci failed');
  if (!args.includes('--skip-setup') && (needsCluster || needsVsCode)) {
    banner('setup (installs only what is missing)');
    // The cluster tests also use Debian's proxies (tinyproxy, stunnel, microsocks): apt too.
    const what = needsVsCode ? 'all' : 'cluster';
    if (run('bash', [path.join(__dirname, 'env', 'setup.sh'), what]) !== 0) return record('setup', 0, 1, [], 'setup.sh failed');
  }
  banner('build');
  if (run(process.execPath, [path.join(root, 'esbuild.js'), '--tests']) !== 0) return record('build', 0, 1);

  const built = otherReleases.length > 0 && releaseLayers.length > 0 ? buildOtherReleases(otherReleases) : [];
  // Every control plane starts, and is seeded, beside the checks: most of that is waiting on
  // etcd and the apiserver to come up.
  const othersUp = startOtherReleases(built);
  const defaultStarted = needsCluster && runsDefault ? startControlPlane(planeDir, defaultRelease) : Promise.resolve(false);

  // The checks and the plain-Node layers, two at a time (each keeps a core busy), longest first.
  await inPool([
    wants('conformance') && (() => mochaLayerBeside('conformance', {}, 300000, 'conformance')),
    wants('lint') && (() => runBeside('lint', process.execPath, [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), 'src', 'test', 'esbuild.js', 'eslint.config.mjs'])),
    wants('unit') && (() => mochaLayerBeside('unit', {}, 10000, 'unit')),
    wants('typecheck') && (() => runBeside('typecheck', 'npm', ['run', '--silent', 'typecheck'])),
  ].filter(Boolean), 2);

  const others = await othersUp;
  const defaultUp = await defaultStarted;
  if (needsCluster && runsDefault && !defaultUp) for (const layer of clusterLayers.filter(wants)) record(layer, 0, 1, [], 'control plane did not start');
  const clusterEnv = { KEV_K8S_VERSION: defaultRelease, KEV_CONTROL_PLANE_DIR: planeDir, KUBECONFIG: path.join(planeDir, 'admin.kubeconfig') };
  try {
    // Every release's cluster layer at the same time: they wait on their apiservers far more
    // than they compute. Each starts at another file, so their heavy files (the 100 MB log,
    // the long texts) and their waiting ones (an apiserver stopped for 30 s) overlap rather
    // than coincide. Each release's host tests follow its own cluster layer, beside those still
    // running (another release's plane stops then); the default's host and host-k8s together.
    // The UI layers come after, alone: they measure what a person sees, and a lively cluster
    // costs CPU even when idle.
    const layers = [...(defaultUp ? [{ release: defaultRelease, env: clusterEnv }] : []), ...others];
    await Promise.all(layers.map(async (r, i) => {
      if (wants('cluster')) await mochaLayerBeside(`cluster@${r.release}`, r.env, 120000, 'cluster', [`--rotate=${i}/${layers.length}`]);
      if (!r.dir) {
        // Side by side: host-k8s keeps to kubeconfigs and a namespace of its own, and the
        // host tests already share the lively cluster with everything it does.
        await Promise.all([
          wants('host') && hostLayerBeside('host', clusterEnv),
          wants('host-k8s') && hostLayerBeside('host-k8s', clusterEnv, ['--kubernetes-extension']),
        ]);
        return;
      }
      if (wants('host')) await hostLayerBeside(`host@${r.release}`, { ...r.env, KEV_HOST_ONLY: 'activation' }, [`--name=host-${r.release}`]);
      stopControlPlane(r.dir);
    }));
    if (defaultUp) {
      if (wants('ui')) mochaLayer('ui', clusterEnv, 180000, 'ui', ['--exclude=kubernetes']);
      if (wants('ui-k8s')) mochaLayer('ui-k8s', clusterEnv, 180000, 'ui/kubernetes');
    }
  } finally {
    stopControlPlane();
  }
}

const started = Date.now();
main()
  .catch((e) => {
    console.error(e);
    record('runner', 0, 1, [], e.message);
  })
  .finally(() => {
    stopControlPlane();
    banner(`summary (${Math.round((Date.now() - started) / 1000)}s)`);
    for (const line of summary) console.log(line);
    printSkipped(skipped);
    for (const f of failedTests) console.log(`failed: ${f.layer}: ${f.title}\n  ${f.error.slice(0, 2000)}`);
    console.log(`${totals.passed} passed, ${totals.failed} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`);
    process.exitCode = totals.failed > 0 ? 1 : 0;
  });
