import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The repository root: the nearest folder above the running file that holds our package.json
 * and esbuild.js (the tools run from out/test/env, suites from out/test/<layer>/ at any depth).
 */
export const repoRoot = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'esbuild.js'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no repository root above ${__dirname}`);
  }
})();
