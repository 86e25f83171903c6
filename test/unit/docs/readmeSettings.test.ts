// The README is the user's guide, and package.json is what the extension really contributes:
// this keeps them saying the same thing. Every setting of `contributes.configuration` is one
// row of the README's settings table (`| setting | default | what it does |`) with its
// default as JSON; every command a user can find in the command palette is named by its
// title in the README's Commands section; every picture the README shows is in the repository
// and says what it shows (alt text).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../env/paths';

interface Property {
  readonly default?: unknown;
}

interface PackageJson {
  readonly name: string;
  readonly contributes: {
    readonly configuration: { readonly properties: Record<string, Property> } | { readonly properties: Record<string, Property> }[];
    readonly commands: { readonly command: string; readonly title: string }[];
    readonly menus?: { readonly commandPalette?: { readonly command: string; readonly when?: string }[] };
  };
}

const root = repoRoot;
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;

/** Every `contributes.configuration` property (the configuration may be one object or a list of them). */
function settings(): Map<string, Property> {
  const config = pkg.contributes.configuration;
  const blocks = Array.isArray(config) ? config : [config];
  return new Map(blocks.flatMap((b) => Object.entries(b.properties)));
}

/** A Markdown table row's cells, split at pipes not escaped as `\|`, trimmed. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

interface Row {
  readonly line: number;
  readonly cells: string[];
}

/** The rows (separator left out) of the table whose header is exactly `header`; fails when there is not exactly one such table. */
function table(header: readonly string[]): Row[] {
  const lines = readme.split('\n');
  const starts = lines.flatMap((l, i) => (l.trim().startsWith('|') && cells(l).join('\u0000').toLowerCase() === header.join('\u0000') ? [i] : []));
  assert.equal(starts.length, 1, `README.md must have exactly one table with the header | ${header.join(' | ')} | (found ${starts.length})`);
  const rows: Row[] = [];
  for (let i = starts[0] + 1; i < lines.length && lines[i].trim().startsWith('|'); i++) {
    const c = cells(lines[i]);
    if (c.every((x) => /^:?-+:?$/.test(x))) continue;
    rows.push({ line: i + 1, cells: c });
  }
  return rows;
}

/** The text of the README's section under the level-2 heading `name` (up to the next level-2 heading). */
function section(name: string): string {
  const m = new RegExp(`^## ${name}[^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(readme);
  assert.ok(m, `README.md has no "## ${name}" section`);
  return m[1];
}

describe('README.md against package.json', () => {
  describe('the settings table', () => {
    const contributed = settings();
    /** The table's rows with the setting each names, read in each test (a table that cannot be read fails the tests, not the file's loading). */
    const rows = (): (Row & { key: string })[] =>
      table(['setting', 'default', 'what it does']).map((r) => {
        const m = /^`(kubernetesEvents\.[A-Za-z0-9_.]+)`$/.exec(r.cells[0] ?? '');
        assert.ok(m, `README.md line ${r.line}: the settings table's first column must be one setting in backticks, like \`kubernetesEvents.storeCap\`; it is "${r.cells[0]}"`);
        assert.equal(r.cells.length, 3, `README.md line ${r.line}: a settings row has three columns (setting, default, what it does); it has ${r.cells.length}`);
        return { ...r, key: m[1] };
      });

    it('has a row for every setting package.json contributes', () => {
      const rowKeys = new Set(rows().map((r) => r.key));
      const missing = [...contributed.keys()].filter((k) => !rowKeys.has(k));
      assert.deepEqual(missing, [], missing.map((k) => `README's settings table lacks ${k}: add a row for it`).join('\n'));
    });

    it('names no setting package.json lacks', () => {
      const extra = rows().filter((r) => !contributed.has(r.key));
      assert.deepEqual(extra.map((r) => r.key), [], extra.map((r) => `README.md line ${r.line} names ${r.key}, which package.json does not contribute: remove the row or fix its name`).join('\n'));
    });

    it('gives each setting its default from package.json, as JSON in backticks', () => {
      const wrong: string[] = [];
      for (const r of rows()) {
        const p = contributed.get(r.key);
        if (!p) continue;
        const expected = JSON.stringify(p.default);
        const m = /^`(.*)`$/.exec(r.cells[1] ?? '');
        if (!m) {
          wrong.push(`README.md line ${r.line}: the default of ${r.key} must be its JSON in backticks: \`${expected}\``);
          continue;
        }
        let shown: unknown;
        try {
          shown = JSON.parse(m[1]) as unknown;
        } catch {
          wrong.push(`README.md line ${r.line}: the default of ${r.key} is not JSON (${m[1]}): write \`${expected}\``);
          continue;
        }
        try {
          assert.deepStrictEqual(shown, p.default);
        } catch {
          wrong.push(`README.md line ${r.line}: the default of ${r.key} is ${m[1]}, package.json says ${expected}: write \`${expected}\``);
        }
      }
      assert.deepEqual(wrong, [], wrong.join('\n'));
    });

    it('has each setting in exactly one row', () => {
      const lines = new Map<string, number[]>();
      for (const r of rows()) lines.set(r.key, [...(lines.get(r.key) ?? []), r.line]);
      const doubled = [...lines].filter(([, at]) => at.length > 1);
      assert.deepEqual(doubled, [], doubled.map(([k, at]) => `README's settings table has ${k} in ${at.length} rows (lines ${at.join(', ')}): keep one`).join('\n'));
    });

    it('describes each setting', () => {
      const bare = rows().filter((r) => !r.cells[2]);
      assert.deepEqual(bare.map((r) => r.key), [], bare.map((r) => `README.md line ${r.line}: say what ${r.key} does in the third column`).join('\n'));
    });
  });

  it('names every command the command palette shows by its title in the Commands section', () => {
    const hidden = new Set((pkg.contributes.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
    const commands = section('Commands');
    const missing = pkg.contributes.commands.filter((c) => !hidden.has(c.command) && !commands.includes(c.title));
    assert.deepEqual(
      missing.map((c) => c.command),
      [],
      missing.map((c) => `README's Commands section does not name ${c.command} by its title "${c.title}": add it to the commands table`).join('\n'),
    );
  });

  it('shows only pictures that are in the repository, each with alt text', () => {
    const images = [...readme.matchAll(/!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ alt: m[1].trim(), target: m[2] }));
    const htmlImages = [...readme.matchAll(/<img\b[^>]*\bsrc="([^"]+)"[^>]*>/g)].map((m) => ({ alt: /\balt="([^"]*)"/.exec(m[0])?.[1]?.trim() ?? '', target: m[1] }));
    const all = [...images, ...htmlImages];
    assert.ok(all.length > 0, 'README.md shows no picture: it should show at least the Events view');
    const problems: string[] = [];
    for (const { alt, target } of all) {
      if (/^[a-z]+:/i.test(target)) problems.push(`README.md links the picture ${target} outside the repository: use a relative path under media/screenshots/`);
      else if (!fs.existsSync(path.join(root, decodeURI(target)))) problems.push(`README.md shows ${target}, which is not in the repository: take it (test/ui) or link one that exists`);
      if (!alt) problems.push(`README.md shows ${target} with no alt text: say what the picture shows`);
    }
    assert.deepEqual(problems, [], problems.join('\n'));
  });
});
