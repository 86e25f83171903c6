// What the .vsix ships, read from `vsce ls` (the list `npm run package` zips), and the
// package.json fields the Marketplace and Open VSX show. The package must hold exactly what
// the extension runs (its bundle, the webviews' scripts and stylesheets, its icons), what its
// Marketplace page shows (README.md, CHANGELOG.md, LICENSE and every picture they link, so the
// page renders offline in VS Code's extension editor) and its walkthrough's media; nothing
// else (no src/, test/, source maps or node_modules). Each file's size is printed, and the total
// is held under a budget.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { skipSuite } from '../../env/skip';
import { repoRoot } from '../../env/paths';

/**
 * The most the shipped files may weigh together, uncompressed (the .vsix is a zip, so smaller).
 * Measured at 2,715,087 bytes in 24 files (the production bundle 499,848; the twelve pictures
 * README.md and the walkthrough show 2,103,783) when this test was written: the budget is
 * about 1.5 times that. A picture or a dependency
 * that pushes past it should be a choice, not an accident.
 */
const BUDGET_BYTES = 4_000_000;

/** The Marketplace's categories (https://code.visualstudio.com/api/references/extension-manifest). */
const MARKETPLACE_CATEGORIES = new Set([
  'Programming Languages', 'Snippets', 'Linters', 'Themes', 'Debuggers', 'Formatters', 'Keymaps', 'SCM Providers', 'Other',
  'Extension Packs', 'Language Packs', 'Data Science', 'Machine Learning', 'Visualization', 'Notebooks', 'Education', 'Testing', 'AI', 'Chat',
]);

/** The webviews' stylesheets: src/views/<name>/<name>Panel.ts loads them from media/<name>, beside the script esbuild.js builds there. */
const WEBVIEW_STYLESHEETS = ['media/timeline/timeline.css', 'media/diagnose/diagnose.css'];

type IconValue = string | { readonly light?: string; readonly dark?: string };

interface WalkthroughMedia {
  readonly markdown?: string;
  readonly svg?: string;
  readonly image?: string | { readonly light?: string; readonly dark?: string; readonly hc?: string; readonly hcLight?: string };
}

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly main: string;
  readonly icon?: string;
  readonly preview?: boolean;
  readonly galleryBanner?: { readonly color?: string; readonly theme?: string };
  readonly categories?: string[];
  readonly keywords?: string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly contributes: {
    readonly walkthroughs?: { readonly id: string; readonly steps: { readonly id: string; readonly media?: WalkthroughMedia }[] }[];
  } & Record<string, unknown>;
}

const root = repoRoot;
const pkgText = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const pkg = JSON.parse(pkgText) as PackageJson;

/** A path as vsce lists it: relative to the root, forward slashes, no leading `./`. */
function normal(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '');
}

/** The pictures a Markdown file links (Markdown images, reference definitions of images, <img src>), as paths from the root; links elsewhere left out. */
function picturesOf(markdownFile: string): string[] {
  const file = path.join(root, markdownFile);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  const targets = [
    ...[...text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?\.(?:png|jpe?g|gif|svg|webp))>?(?:\s|$)/gim)].map((m) => m[1]),
    ...[...text.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]),
  ];
  const dir = path.posix.dirname(normal(markdownFile));
  return targets
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#'))
    .map((t) => normal(path.posix.join(dir, decodeURI(t.replace(/[?#].*$/, '')))));
}

/**
 * The files esbuild.js builds for production (`vscode:prepublish`, which `npm run package`
 * runs) and each one's size, built in memory: esbuild.js runs in a child process whose
 * `esbuild.build` is wrapped to write nothing, so the bundles on disk (npm test's development
 * build, which the other layers use) stay as they are.
 */
function productionBuild(): Map<string, number> {
  const script = `
    const path = require('node:path');
    const root = process.cwd();
    const id = require.resolve('esbuild', { paths: [root] });
    const real = require(id);
    const sizes = {};
    require.cache[id].exports = { ...real, build: async (options) => {
      const result = await real.build({ ...options, write: false });
      for (const f of result.outputFiles ?? []) sizes[path.relative(root, f.path).split(path.sep).join('/')] = f.contents.length;
      return result;
    } };
    process.argv = [process.argv[0], path.join(root, 'esbuild.js'), '--production'];
    process.on('exit', (code) => { if (code === 0) process.stdout.write('\\nSIZES ' + JSON.stringify(sizes) + '\\n'); });
    require(path.join(root, 'esbuild.js'));
  `;
  const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const line = out.split('\n').find((l) => l.startsWith('SIZES '));
  assert.ok(line, `node esbuild.js --production (built in memory) printed no sizes; its output was:\n${out}`);
  return new Map(Object.entries(JSON.parse(line.slice('SIZES '.length)) as Record<string, number>));
}

/**
 * `vsce ls --no-dependencies`: the files `npm run package` puts in the .vsix. `ls` takes neither
 * --allow-missing-repository nor --no-rewrite-relative-links (they only change `vsce package`'s
 * checks and README links, not which files go in), and unlike `package` it does not run
 * `vscode:prepublish`: it lists the files on disk as they are.
 */
function vsceLs(): string[] {
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json', { paths: [root] })), 'vsce');
  const out = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').map((l) => l.trim()).filter(Boolean).map(normal);
}

/** Every file package.json's `contributes` names as an icon (codicons like `$(refresh)` left out). */
function contributedIcons(): string[] {
  const found: string[] = [];
  const walk = (value: unknown, key: string): void => {
    if (key === 'icon') {
      const icon = value as IconValue;
      for (const p of typeof icon === 'string' ? [icon] : [icon.light, icon.dark]) if (p && !p.startsWith('$(')) found.push(normal(p));
      return;
    }
    if (Array.isArray(value)) value.forEach((v) => walk(v, ''));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(pkg.contributes, '');
  return found;
}

/** The files the package must hold, each with why (the first reason found). */
function needed(built: Map<string, number>): Map<string, string> {
  const need = new Map<string, string>();
  const add = (file: string, why: string): void => {
    if (!need.has(file)) need.set(file, why);
  };
  add('package.json', 'the manifest');
  add('README.md', 'the Marketplace page');
  add('CHANGELOG.md', "the Marketplace page's Changelog tab");
  add('LICENSE', 'the license');
  add(normal(pkg.main), 'package.json main, the extension itself');
  if (pkg.icon) add(normal(pkg.icon), 'package.json icon, the Marketplace icon');
  for (const f of built.keys()) add(f, 'built by esbuild.js for production');
  for (const f of WEBVIEW_STYLESHEETS) add(f, "a webview's stylesheet");
  for (const f of contributedIcons()) add(f, 'an icon package.json contributes');
  for (const doc of ['README.md', 'CHANGELOG.md']) for (const f of picturesOf(doc)) add(f, `pictured in ${doc}`);
  for (const w of pkg.contributes.walkthroughs ?? []) {
    for (const step of w.steps) {
      const media = step.media;
      if (!media) continue;
      const why = `the media of walkthrough ${w.id}'s step ${step.id}`;
      const images = typeof media.image === 'string' ? [media.image] : Object.values(media.image ?? {});
      for (const f of [media.markdown, media.svg, ...images]) if (f) add(normal(f), why);
      if (media.markdown) for (const f of picturesOf(normal(media.markdown))) add(f, `pictured in ${normal(media.markdown)} (walkthrough ${w.id}'s step ${step.id})`);
    }
  }
  return need;
}

/** What to do about a shipped file nothing needs. */
function whyNot(file: string): string {
  if (file.startsWith('src/')) return 'source is bundled into dist/extension.js';
  if (file.startsWith('test/') || file.startsWith('out/')) return 'tests are not part of the extension';
  if (file.startsWith('node_modules/')) return 'dependencies are bundled into dist/extension.js (npm run package passes --no-dependencies)';
  if (file.endsWith('.map')) return 'source maps are for the development build';
  if (file.startsWith('media/screenshots/')) return 'README.md, CHANGELOG.md and the walkthrough do not show it';
  return 'not the manifest, the bundle, a webview asset, an icon, a picture README.md shows or walkthrough media';
}

function bytes(n: number): string {
  return n.toLocaleString('en-US');
}

describe('the .vsix (vsce ls): what is shipped and its size', () => {
  let built = new Map<string, number>();
  let shipped: string[] = [];

  before(function () {
    this.timeout(120_000);
    built = productionBuild();
    const unbuilt = [...built.keys()].filter((f) => !fs.existsSync(path.join(root, f)));
    if (unbuilt.length) skipSuite(this, `${unbuilt.join(', ')} not built, and vsce ls lists only files on disk: run node esbuild.js (npm test's build step does)`);
    shipped = vsceLs();
  });

  it('ships exactly what the extension, its Marketplace page and its walkthrough need', () => {
    const need = needed(built);
    const shippedSet = new Set(shipped);
    const problems: string[] = [];
    for (const [file, why] of need) {
      if (shippedSet.has(file)) continue;
      if (!fs.existsSync(path.join(root, file))) problems.push(`${file} is needed (${why}) but is not in the repository: ${built.has(file) ? 'run node esbuild.js' : 'add it, or remove the reference to it'}`);
      else problems.push(`${file} is needed (${why}) but .vscodeignore does not ship it: add !${file}`);
    }
    for (const file of shipped) {
      if (!need.has(file)) problems.push(`${file} is shipped but nothing needs it (${whyNot(file)}): remove the line of .vscodeignore that ships it`);
    }
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  it('prints what is shipped and its size, under the budget', () => {
    const rows = shipped.map((file) => {
      const onDisk = fs.statSync(path.join(root, file)).size;
      const size = built.get(file) ?? onDisk;
      return { file, size, note: size === onDisk ? '' : `the production build; the development build on disk is ${bytes(onDisk)}` };
    }).sort((a, b) => b.size - a.size || a.file.localeCompare(b.file));
    const total = rows.reduce((sum, r) => sum + r.size, 0);
    const width = Math.max(...rows.map((r) => r.file.length), 'total'.length);
    const digits = bytes(Math.max(total, BUDGET_BYTES)).length;
    console.log(`      what is shipped (vsce ls, uncompressed bytes):`);
    for (const r of rows) console.log(`      ${r.file.padEnd(width)}  ${bytes(r.size).padStart(digits)}${r.note ? `  (${r.note})` : ''}`);
    console.log(`      ${'total'.padEnd(width)}  ${bytes(total).padStart(digits)}  (${rows.length} files; budget ${bytes(BUDGET_BYTES)})`);
    const largest = rows.slice(0, 3).map((r) => `${r.file} ${bytes(r.size)}`).join(', ');
    assert.ok(total <= BUDGET_BYTES, `The .vsix's files weigh ${bytes(total)} bytes, over the budget of ${bytes(BUDGET_BYTES)} (the largest: ${largest}): shrink or drop a picture, or a dependency of the bundle, or raise BUDGET_BYTES in this file saying why`);
  });
});

describe('package.json for the Marketplace and Open VSX', () => {
  it('has a PNG icon of at least 128x128 px', () => {
    assert.ok(pkg.icon, 'package.json has no "icon": add "icon": "media/icon.png" (a PNG of at least 128x128 px)');
    const file = path.join(root, pkg.icon);
    assert.ok(fs.existsSync(file), `package.json's icon ${pkg.icon} is not in the repository: rebuild it from media/icon.svg (the command is in its comment)`);
    const png = fs.readFileSync(file);
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(png.subarray(0, 8).equals(signature) && png.toString('latin1', 12, 16) === 'IHDR', `${pkg.icon} is not a PNG: the Marketplace takes a PNG icon, not SVG`);
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    assert.ok(width >= 128 && height >= 128, `${pkg.icon} is ${width}x${height} px: the Marketplace wants at least 128x128 (rebuild it from media/icon.svg at 256x256)`);
    assert.equal(width, height, `${pkg.icon} is ${width}x${height} px: make it square`);
  });

  it('names no placeholder URL', () => {
    const placeholder = /^(?:[^/]*\.)?(?:example\.(?:com|net|org)|[^/.]+\.(?:invalid|example|test)|example|invalid)$/i;
    const bad = [...pkgText.matchAll(/\b(?:https?|git(?:\+ssh|\+https)?|ssh):\/\/(?:[^@/\s"]+@)?([^/:\s"]+)[^\s"]*/gi)].filter((m) => placeholder.test(m[1])).map((m) => m[0]);
    assert.deepEqual(bad, [], `package.json names placeholder URLs (${bad.join(', ')}): remove the field (repository, homepage, bugs, qna) rather than invent an address (npm run package passes --allow-missing-repository); an example in a description needs no scheme`);
  });

  it('is a preview while its version is 0.x', () => {
    if (pkg.version.startsWith('0.')) assert.equal(pkg.preview, true, `version ${pkg.version} is 0.x: set "preview": true`);
  });

  it('has a gallery banner, categories from the Marketplace list, and keywords', () => {
    assert.match(pkg.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i, 'package.json needs "galleryBanner": {"color": "#rrggbb", "theme": "dark" or "light"}');
    assert.ok(pkg.galleryBanner?.theme === 'dark' || pkg.galleryBanner?.theme === 'light', 'galleryBanner.theme must be "dark" or "light"');
    const categories = pkg.categories ?? [];
    assert.ok(categories.length > 0, 'package.json has no categories');
    const unknown = categories.filter((c) => !MARKETPLACE_CATEGORIES.has(c));
    assert.deepEqual(unknown, [], `categories the Marketplace does not have: ${unknown.join(', ')}: pick from ${[...MARKETPLACE_CATEGORIES].join(', ')}`);
    const keywords = pkg.keywords ?? [];
    assert.ok(keywords.length > 0 && keywords.length <= 30, `package.json has ${keywords.length} keywords: vsce takes 1 to 30`);
    assert.ok(keywords.includes('kubernetes'), 'the keywords must include "kubernetes", the word users search for');
  });

  it('depends at run time on exactly the packages src/ imports', () => {
    const runtime = new Set(Object.keys(pkg.dependencies ?? {}));
    const imported = new Map<string, string>();
    const builtins = new Set(builtinModules);
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) {
          const text = fs.readFileSync(p, 'utf8');
          const specifiers = [
            // import/export ... from 'x', leaving out `import type` (erased, never bundled)
            ...[...text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]),
            ...[...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]),
            ...[...text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
          ];
          for (const s of specifiers) {
            if (s.startsWith('.') || s.startsWith('node:') || s === 'vscode' || builtins.has(s.split('/')[0])) continue;
            const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0];
            if (!imported.has(name)) imported.set(name, normal(path.relative(root, p)));
          }
        }
      }
    };
    walk(path.join(root, 'src'));
    const problems: string[] = [];
    for (const name of runtime) {
      if (!imported.has(name)) problems.push(`${name} is in dependencies but src/ does not import it: move it to devDependencies (only tests or tools use it)`);
    }
    for (const [name, where] of imported) {
      if (!runtime.has(name)) problems.push(`${where} imports ${name}, which is not in dependencies: npm install --save-exact ${name}`);
    }
    assert.deepEqual(problems, [], problems.join('\n'));
    assert.ok(!runtime.has('@kubernetes/client-node'), '@kubernetes/client-node is a runtime dependency, but only tests import it: move it to devDependencies');
  });

  it('has a package-lock.json that agrees with package.json', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }> };
    const top = lock.packages[''];
    assert.deepEqual(top.dependencies ?? {}, pkg.dependencies ?? {}, "package-lock.json's dependencies differ from package.json's: run npm install");
    assert.deepEqual(top.devDependencies ?? {}, pkg.devDependencies ?? {}, "package-lock.json's devDependencies differ from package.json's: run npm install");
  });
});
