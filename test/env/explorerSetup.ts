// code-server with the Kubernetes extension beside ours, offline: the vendored .vsix files,
// kubectl from the control-plane build on PATH, its Helm, telemetry and recommendation prompts
// silenced by settings, and kubeconfigs of its own (Set as Current Cluster runs `kubectl
// config use-context`, which rewrites the file: never the shared admin.kubeconfig).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { ControlPlaneState } from './controlPlane';
import { vendoredExtensions } from './vendor';

/** The contexts of the kubeconfigs below (all on the test control plane). */
export const EXPLORER_CONTEXTS = {
  /** The Kubernetes extension's kubeconfig at start: current context, user kev-admin. */
  a: 'explorer-a',
  /** Its other context, to switch to. */
  aOther: 'explorer-a-other',
  /** The only context of a second kubeconfig, to set as its kubeconfig. */
  b: 'explorer-b',
  /** Our own kubeconfig's (kubernetesEvents.kubeconfig) current context, user kev-admin. */
  own: 'own-c',
  /** Our own kubeconfig's other context, user kev-limited (may read nothing). */
  ownLimited: 'own-limited',
} as const;

export interface ExplorerKubeconfigs {
  readonly a: string;
  readonly b: string;
  readonly own: string;
}

export interface ExplorerSetup {
  /** The .vsix files to install beside ours; undefined when they are missing. */
  readonly extensions?: string[];
  /** Why the tests that need them are skipped. */
  readonly missing?: string;
  /** Folders for code-server's PATH: kubectl. */
  readonly path: string[];
  /** User settings. */
  readonly settings: Record<string, unknown>;
  readonly kubeconfigs: ExplorerKubeconfigs;
}

interface Kubeconfig {
  clusters: { name: string }[];
  users: { name: string }[];
}

/** Writes the kubeconfigs: the admin one's cluster and users, under our context names, in `namespace`. */
function writeKubeconfigs(dir: string, adminKubeconfig: string, namespace: string): ExplorerKubeconfigs {
  const admin = yaml.load(fs.readFileSync(adminKubeconfig, 'utf8')) as Kubeconfig;
  const cluster = admin.clusters[0].name;
  const write = (name: string, contexts: [string, string][]) => {
    const file = path.join(dir, `${name}.kubeconfig`);
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: admin.clusters,
      users: admin.users,
      contexts: contexts.map(([context, user]) => ({ name: context, context: { cluster, user, namespace } })),
      'current-context': contexts[0][0],
    };
    fs.writeFileSync(file, yaml.dump(config), { mode: 0o600 });
    return file;
  };
  const c = EXPLORER_CONTEXTS;
  return {
    a: write('explorer-a', [[c.a, 'kev-admin'], [c.aOther, 'kev-admin']]),
    b: write('explorer-b', [[c.b, 'kev-admin']]),
    own: write('own', [[c.own, 'kev-admin'], [c.ownLimited, 'kev-limited']]),
  };
}

/**
 * Everything a code-server needs to run the Kubernetes extension on the test control plane,
 * written into `dir` (emptied first). Its explorer lists `namespace` (its current namespace).
 */
export function explorerSetup(dir: string, plane: ControlPlaneState, namespace: string): ExplorerSetup {
  fs.rmSync(dir, { recursive: true, force: true });
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  // Only kubectl on PATH, not the apiserver and the rest of the build.
  fs.symlinkSync(path.join(plane.binDir, 'kubectl'), path.join(bin, 'kubectl'));
  const kubeconfigs = writeKubeconfigs(dir, plane.adminKubeconfig, namespace);
  const vendored = vendoredExtensions();
  return {
    ...('files' in vendored ? { extensions: vendored.files } : { missing: vendored.missing }),
    path: [bin],
    kubeconfigs,
    settings: {
      'vs-kubernetes': {
        'vs-kubernetes.kubeconfig': kubeconfigs.a,
        'vs-kubernetes.suppress-helm-not-found-alerts': true,
        'vs-kubernetes.ignore-recommendations': true,
        checkForMinikubeUpgrade: false,
      },
      'telemetry.telemetryLevel': 'off',
      'redhat.telemetry.enabled': false,
      'yaml.schemaStore.enable': false,
    },
  };
}
