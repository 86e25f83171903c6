// The vendored VS Code extensions (the Kubernetes extension and the YAML extension it needs),
// packaged from their upstream release tags into ../shared/vendor (see its README). They are in
// no registry this machine reaches: tests that need them skip, with this module's reason, in a
// clone without them. CI always has them.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './paths';

/** Where the .vsix files are: KEV_VENDOR_DIR, else ../shared/vendor beside the clone. */
export function vendorDir(): string {
  return process.env.KEV_VENDOR_DIR || path.join(repoRoot, '..', 'shared', 'vendor');
}

export interface VendoredExtension {
  readonly id: string;
  readonly version: string;
  readonly file: string;
  /** The SHA-256 the vendor README gives: a different file is an error, never a skip. */
  readonly sha256: string;
}

/** The Kubernetes extension the integration is tested against. */
export const KUBERNETES_EXTENSION: VendoredExtension = {
  id: 'ms-kubernetes-tools.vscode-kubernetes-tools',
  version: '1.4.1',
  file: 'ms-kubernetes-tools.vscode-kubernetes-tools-1.4.1.vsix',
  sha256: '86eb98aedd5132bedbcf663fe14ffcdc6985d7a5c6c14fae3a2c8e40b1b87a30',
};

/** Its `extensionDependencies`: without it the Kubernetes extension never activates. */
export const YAML_EXTENSION: VendoredExtension = {
  id: 'redhat.vscode-yaml',
  version: '1.24.0',
  file: 'redhat.vscode-yaml-1.24.0.vsix',
  sha256: '0917afad0ae1e6187cbcaef00d4086cb5d591ce9d53c7371cf735ace1c3d4a1a',
};

export const VENDORED = [YAML_EXTENSION, KUBERNETES_EXTENSION] as const;

export type Vendored = { readonly files: string[] } | { readonly missing: string };

/** The .vsix paths, or why they cannot be used (a missing folder or file). Throws on a file that is not the one expected. */
export function vendoredExtensions(): Vendored {
  const dir = vendorDir();
  const absent = VENDORED.filter((e) => !fs.existsSync(path.join(dir, e.file)));
  if (absent.length > 0) return { missing: `${absent.map((e) => e.file).join(' and ')} not found in ${dir} (set KEV_VENDOR_DIR to the folder that holds them)` };
  return {
    files: VENDORED.map((e) => {
      const file = path.join(dir, e.file);
      const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      if (sha !== e.sha256) throw new Error(`${file} has SHA-256 ${sha}, not ${e.sha256} as the vendor README gives`);
      return file;
    }),
  };
}
