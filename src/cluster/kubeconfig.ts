// Kubeconfig loading with kubectl's rules (client-go clientcmd): the KUBECONFIG list is
// merged with the first file winning for any cluster, user or context name and for
// current-context (client-node throws on duplicates and lets the last current-context win);
// relative paths are resolved against the file that holds them; missing list entries are
// skipped; nothing found is an error, never client-node's silent http://localhost:8080.
// Each context gets a RestConfig of its own (restConfig.ts), so no client outlives a context switch.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { KubeconfigError } from './errors';

export { KubeconfigError };

/**
 * The kubeconfig files to read, in kubectl's order: an explicit path, else every existing
 * file of KUBECONFIG, else ~/.kube/config.
 */
export function kubeconfigFiles(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (explicitPath) return [explicitPath];
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((p) => p !== '');
  if (fromEnv.length > 0) return [...new Set(fromEnv)].filter((p) => fs.existsSync(p));
  return [path.join(env.HOME ?? os.homedir(), '.kube', 'config')].filter((p) => fs.existsSync(p));
}

type Named = { name?: string; [k: string]: unknown };
interface RawKubeconfig {
  clusters?: Named[];
  users?: Named[];
  contexts?: Named[];
  'current-context'?: string;
  [k: string]: unknown;
}

/** A context as the picker shows it. */
export interface ContextInfo {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  readonly namespace: string;
}

/** One named cluster, user or context of the merged kubeconfig, and the file it came from. */
export interface KubeconfigEntry {
  readonly name: string;
  readonly value: Record<string, unknown>;
  readonly file: string;
}

/** The merged kubeconfig: where it came from, its contexts, and its entries by kind. */
export interface LoadedKubeconfig {
  readonly files: readonly string[];
  readonly contexts: readonly ContextInfo[];
  readonly currentContext: string;
  readonly clusters: ReadonlyMap<string, KubeconfigEntry>;
  readonly users: ReadonlyMap<string, KubeconfigEntry>;
}

function resolveAgainst(dir: string, p: unknown): unknown {
  return typeof p === 'string' && p !== '' && !path.isAbsolute(p) ? path.join(dir, p) : p;
}

/** clientcmd's ResolveLocalPaths: file references are relative to the kubeconfig holding them. */
function resolvePaths(config: RawKubeconfig, file: string): void {
  const dir = path.dirname(path.resolve(file));
  for (const c of config.clusters ?? []) {
    const cluster = c.cluster as Record<string, unknown> | undefined;
    if (cluster) cluster['certificate-authority'] = resolveAgainst(dir, cluster['certificate-authority']);
  }
  for (const u of config.users ?? []) {
    const user = u.user as Record<string, unknown> | undefined;
    if (!user) continue;
    for (const key of ['client-certificate', 'client-key', 'tokenFile']) user[key] = resolveAgainst(dir, user[key]);
    const exec = user.exec as Record<string, unknown> | undefined;
    // An exec command is a path only when it has a separator; otherwise it is looked up on PATH.
    if (exec && typeof exec.command === 'string' && exec.command.includes('/')) exec.command = resolveAgainst(dir, exec.command);
  }
}

function readFile(file: string): RawKubeconfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new KubeconfigError(`Kubeconfig ${file} cannot be read: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (e as Error).message}.`);
  }
  let parsed: unknown;
  try {
    parsed = yaml.load(text);
  } catch (e) {
    throw new KubeconfigError(`Kubeconfig ${file} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (parsed === undefined || parsed === null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new KubeconfigError(`Kubeconfig ${file} is not a kubeconfig: expected a mapping with clusters, users and contexts.`);
  const config = parsed as RawKubeconfig;
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    if (config[key] !== undefined && config[key] !== null && !Array.isArray(config[key])) throw new KubeconfigError(`Kubeconfig ${file}: "${key}" must be a list.`);
  }
  resolvePaths(config, file);
  return config;
}

/** Merges the files with kubectl's rules and lists the contexts. */
export function loadKubeconfig(explicitPath?: string, env: NodeJS.ProcessEnv = process.env): LoadedKubeconfig {
  const files = kubeconfigFiles(explicitPath, env);
  if (files.length === 0) {
    throw new KubeconfigError('No kubeconfig found: set KUBECONFIG, create ~/.kube/config, or set kubernetesEvents.kubeconfig.');
  }
  const merged: Required<Pick<RawKubeconfig, 'clusters' | 'users' | 'contexts'>> & { 'current-context': string } = { clusters: [], users: [], contexts: [], 'current-context': '' };
  const origins = new Map<Named, string>();
  for (const file of files) {
    const config = readFile(file);
    for (const key of ['clusters', 'users', 'contexts'] as const) {
      for (const entry of config[key] ?? []) {
        // The first file to define a name wins; later ones never change it.
        if (entry?.name && !merged[key].some((e) => e.name === entry.name)) {
          merged[key].push(entry);
          origins.set(entry, path.resolve(file));
        }
      }
    }
    if (!merged['current-context'] && config['current-context']) merged['current-context'] = config['current-context'];
  }
  const contexts = merged.contexts.map((c) => {
    const ctx = (c.context ?? {}) as Record<string, string | undefined>;
    return { name: c.name as string, cluster: ctx.cluster ?? '', user: ctx.user ?? '', namespace: ctx.namespace ?? '' };
  });
  const entries = (list: Named[], key: string) => new Map(list.map((e) => [e.name as string, { name: e.name as string, value: (e[key] ?? {}) as Record<string, unknown>, file: origins.get(e) ?? '' }]));
  return { files, contexts, currentContext: merged['current-context'], clusters: entries(merged.clusters, 'cluster'), users: entries(merged.users, 'user') };
}
