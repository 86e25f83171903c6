// kubectl's age format: our humanDuration against apimachinery's duration.HumanDuration (the
// function kubectl events and kubectl describe call), over every boundary of its table.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { humanDuration } from '../../src/model/kubectlFormat';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

/** Each boundary of HumanDuration's table, a millisecond and a second either side, and values inside each band. */
function durations(): number[] {
  const boundaries = [-2 * S, -1 * S, 0, 2 * M, 10 * M, 3 * H, 8 * H, 48 * H, 8 * D, 2 * Y, 8 * Y];
  const inside = [1 * S, 45 * S, 119 * S, 5 * M, 5 * M + 2 * S, 9 * M + 59 * S, 59 * M, 135 * M, 2 * H + 30 * M, 7 * H + 59 * M, 12 * H, 3 * D, 3 * D + 5 * H, 7 * D + 23 * H, 100 * D, 3 * Y, 3 * Y + 7 * D, 7 * Y + 364 * D, 100 * Y];
  const out = new Set<number>();
  for (const b of [...boundaries, ...inside]) for (const d of [-S, -1, 0, 1, S]) out.add(b + d);
  return [...out].sort((a, b) => a - b);
}

describe('humanDuration against apimachinery duration.HumanDuration v0.34.4', () => {
  it('prints what Go prints for every boundary of the table', () => {
    const repoRoot = path.resolve(__dirname, '..', '..', '..');
    const oracle = execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
    const table = durations();
    const go = execFileSync(oracle, ['-human-durations'], { input: table.join('\n') + '\n' }).toString().trim().split('\n');
    const ours = table.map(humanDuration);
    const diffs = table.map((d, i) => ({ d, go: go[i], ours: ours[i] })).filter((r) => r.go !== r.ours);
    assert.deepEqual(diffs, [], `${table.length} durations compared`);
    assert.ok(table.length > 100);
  });
});
