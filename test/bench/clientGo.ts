// The client-go side of the benchmarks (go/, built by build.sh from the Go module proxy and
// cached by client-go version and source hash): build once, then run subcommands.
import { execFile, execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../env/paths';

/** What a client-go sync side prints (go/sync.go): start to HasSynced or the last page. */
export interface GoSync {
  readonly ms: number;
  readonly cpuMs: number;
  readonly peakRssMiB: number;
}

let binary: string | undefined;

/** The path of the clientgo-bench binary, built (or found in the cache) on first use. */
export function clientGoBinary(): string {
  binary ??= execFileSync('bash', [path.join(repoRoot, 'test', 'bench', 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] })
    .toString()
    .trim();
  return binary;
}

/** Runs one subcommand (with `env` added to ours: client-go's KUBE_FEATURE_* gates); resolves with the JSON object it prints. */
export function clientGo<T>(args: readonly string[], input?: string, env: Record<string, string> = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = execFile(clientGoBinary(), args, { maxBuffer: 1 << 28, env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`clientgo-bench ${args[0]}: ${stderr || err.message}`));
      else resolve(JSON.parse(stdout) as T);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
