// Bundles the extension into one CommonJS file for VS Code's Node extension host,
// following VS Code's bundling guide, and the timeline webview's script into one browser
// file in media/timeline (the only folder the webview may load from), and the Diagnose
// webview's into media/diagnose. `--production` minifies; `--watch` rebuilds
// and logs in the form the esbuild problem matcher expects. `--tests` also bundles
// the test suites into out/test (vscode and node_modules stay external).
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Prints start and end lines the `$esbuild-watch` problem matcher recognises. */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/** Test files: every *.test.ts under test/<layer>, the host suite's index.ts, and the test/env tools. */
function testEntryPoints() {
  const entries = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(test|bench)\.ts$/.test(e.name) || (e.name === 'index.ts' && /test[\\/](host|hostbench)$/.test(dir))) entries.push(p);
    }
  };
  for (const f of fs.readdirSync(path.join(__dirname, 'test', 'env'))) {
    if (f.endsWith('.ts')) entries.push(path.join(__dirname, 'test', 'env', f));
  }
  for (const layer of ['unit', 'cluster', 'host', 'hostbench', 'ui', 'conformance', 'bench']) {
    const dir = path.join(__dirname, 'test', layer);
    if (fs.existsSync(dir)) walk(dir);
  }
  return entries;
}

async function main() {
  const extension = {
    entryPoints: ['src/extension.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    outfile: 'dist/extension.js',
    external: ['vscode'],
    logLevel: watch ? 'silent' : 'warning',
    plugins: watch ? [problemMatcherPlugin] : [],
  };
  const timeline = {
    entryPoints: ['src/views/timeline/webview/main.ts'],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: production,
    // Inline: the webview's content security policy loads nothing but its script and stylesheet.
    sourcemap: production ? false : 'inline',
    sourcesContent: false,
    outfile: 'media/timeline/timeline.js',
    logLevel: watch ? 'silent' : 'warning',
    plugins: watch ? [problemMatcherPlugin] : [],
  };
  const diagnose = { ...timeline, entryPoints: ['src/views/diagnose/webview/main.ts'], outfile: 'media/diagnose/diagnose.js' };
  const builds = [extension, timeline, diagnose];
  if (tests) {
    // A test file that was deleted must not keep running from an old build.
    if (!watch) fs.rmSync(path.join(__dirname, 'out', 'test'), { recursive: true, force: true });
    builds.push({
      entryPoints: testEntryPoints(),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: 'inline',
      outdir: 'out/test',
      outbase: 'test',
      packages: 'external',
      logLevel: watch ? 'silent' : 'warning',
      plugins: watch ? [problemMatcherPlugin] : [],
    });
  }
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    return;
  }
  for (const options of builds) {
    const result = await esbuild.build(options);
    if (result.errors.length) process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
