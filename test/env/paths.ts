import * as path from 'node:path';

/** The repository root, from out/test/env where the compiled tools run. */
export const repoRoot = path.resolve(__dirname, '..', '..', '..');
