// What every benchmark shares: sides run interleaved (ours, then the references, the
// order reversed every other run so none always runs first on a warm or cold machine),
// and one table format: min, median and every run, and the ratio to the reference.
import { execFile } from 'node:child_process';
import * as path from 'node:path';

/** One contender in a benchmark: a label and one measured run (returns the figure). */
export interface Side {
  readonly label: string;
  run(run: number): Promise<number> | number;
}

/** Runs each side `runs` times, interleaved; returns each side's figures in run order. */
export async function interleaved(runs: number, sides: readonly Side[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(sides.map((s) => [s.label, []]));
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) (out.get(side.label) as number[]).push(await side.run(r));
  }
  return out;
}

export function min(xs: readonly number[]): number {
  return Math.min(...xs);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The p-th percentile (nearest rank). */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export interface Row {
  readonly label: string;
  readonly values: readonly number[];
  /** The label of the row this one is compared with: prints ratio = this / that. */
  readonly vs?: string;
  /** A note after the figures (a target, "second reference"). */
  readonly note?: string;
  /** Decimals for this row, when not the table's. */
  readonly decimals?: number;
}

const fmt = (x: number, decimals: number) => x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/**
 * Prints one table:
 *   title (unit)
 *     label                       min     median   runs                     ratio
 * The ratio is of the medians (the ratio of the minimums in brackets).
 */
export function printTable(title: string, unit: string, rows: readonly Row[], decimals = 0, out: (line: string) => void = console.log): void {
  const width = Math.max(...rows.map((r) => r.label.length), 10);
  const d = (r: Row) => r.decimals ?? decimals;
  const runsOf = (r: Row) => r.values.map((v) => fmt(v, d(r))).join(' ');
  const runsWidth = Math.max(...rows.map((r) => runsOf(r).length), 4);
  out(`\n${title}${unit ? ` (${unit})` : ''}`);
  out(`  ${''.padEnd(width)} ${'min'.padStart(9)} ${'median'.padStart(9)}   ${'runs'.padEnd(runsWidth)}   ratio (of medians; of minimums)`);
  const byLabel = new Map(rows.map((r) => [r.label, r]));
  for (const r of rows) {
    const ref = r.vs === undefined ? undefined : byLabel.get(r.vs);
    const of = (a: number, b: number) => (b === 0 ? '–' : (a / b).toFixed(2));
    const ratio = ref ? `${of(median(r.values), median(ref.values))} (${of(min(r.values), min(ref.values))}) vs ${shortLabel(ref.label)}` : '';
    const cell = (x: number) => fmt(x, d(r)).padStart(9);
    out(`  ${r.label.padEnd(width)} ${cell(min(r.values))} ${cell(median(r.values))}   ${runsOf(r).padEnd(runsWidth)}   ${[ratio, r.note].filter(Boolean).join('  ')}`.trimEnd());
  }
}

/** The part of a label before any parenthesis, to name the reference in a ratio. */
function shortLabel(label: string): string {
  return label.replace(/\s*\(.*$/, '');
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/**
 * Runs this benchmark file (`file`, its __filename) again as `<file> child ...args`, with the
 * collector exposed (and a CPU profile in KEV_BENCH_CPU_PROF when set); resolves with the
 * JSON its last line of output holds.
 */
export function benchChild<T>(file: string, args: readonly string[]): Promise<T> {
  const profile = process.env.KEV_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.KEV_BENCH_CPU_PROF}`] : [];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', ...profile, file, 'child', ...args], { maxBuffer: 1 << 28 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(file)} child ${args[0] ?? ''}: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as T);
    });
  });
}

/**
 * A benchmark file's entry: `main`, or, when started as `<file> child ...args` (a side run in
 * a process of its own), `child` with those arguments. A failure prints its stack and exits 1.
 */
export function benchEntry(main: () => Promise<void>, child?: (args: string[]) => Promise<void>): void {
  const [, , mode, ...args] = process.argv;
  const run = mode === 'child' && child ? child(args) : main();
  run.catch((e: Error) => {
    console.error(e.stack ?? e.message);
    process.exit(1);
  });
}
