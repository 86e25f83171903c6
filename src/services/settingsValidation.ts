// Checks every setting against what it feeds: whole numbers where client-go has integers,
// client-go's bounds, known enumerations. A bad value is replaced by its default and
// described in a sentence that names the setting, the value and what would be right; it
// never reaches the correlator or stops the extension from starting.
import type { CorrelatorOptions } from '../record/eventsCache';
import { isSortOrder, type SortOrder } from '../model/groupOrder';

/** How objects are grouped: each on its own, under their namespace, or under their workload. */
export type GroupBy = 'object' | 'namespace' | 'workload';
export const GROUP_BYS: readonly GroupBy[] = ['object', 'namespace', 'workload'];

export interface Settings {
  readonly kubeconfig: string;
  readonly context: string;
  readonly namespaces: string[];
  readonly warningsOnly: boolean;
  readonly groupBy: GroupBy;
  readonly sortOrder: SortOrder;
  readonly historyWindowHours: number;
  readonly storeCap: number;
  readonly maxChildren: number;
  readonly sinkEnabled: boolean;
  readonly showManagedFields: boolean;
  /** Notify about new warnings (and warnings whose count rose). */
  readonly notifyWarnings: boolean;
  /** Open the Get Started walkthrough the first time the extension runs. */
  readonly walkthroughOnFirstRun: boolean;
  readonly correlator: Required<Pick<CorrelatorOptions, 'burstSize' | 'qps' | 'maxEvents' | 'maxIntervalInSeconds'>>;
  readonly manifests: ManifestSettings;
}

/** Which manifests show their objects' events: none, the open editors', or every one in the workspace. */
export type ManifestScope = 'off' | 'openEditors' | 'workspace';
const MANIFEST_SCOPES: readonly ManifestScope[] = ['off', 'openEditors', 'workspace'];

export interface ManifestSettings {
  readonly scope: ManifestScope;
  /** Which workspace files are read (scope workspace). */
  readonly include: string;
  readonly exclude: readonly string[];
  /** Warnings older than this leave the Problems panel, the lens and the badge. */
  readonly warningWindowMinutes: number;
  readonly problems: boolean;
  readonly codeLens: boolean;
  readonly hover: boolean;
  readonly explorer: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  kubeconfig: '',
  context: '',
  namespaces: [],
  warningsOnly: false,
  groupBy: 'object',
  sortOrder: 'lastSeen',
  historyWindowHours: 24,
  storeCap: 20_000,
  maxChildren: 50,
  sinkEnabled: false,
  showManagedFields: false,
  notifyWarnings: false,
  walkthroughOnFirstRun: true,
  // client-go's defaults (tools/record events_cache.go).
  correlator: { burstSize: 25, qps: 1 / 300, maxEvents: 10, maxIntervalInSeconds: 600 },
  manifests: {
    scope: 'openEditors',
    include: '**/*.{yaml,yml,json}',
    // Dependencies, version control, vendored code and Helm charts' templates (not manifests until rendered).
    exclude: ['**/node_modules/**', '**/.git/**', '**/vendor/**', '**/third_party/**', '**/templates/**'],
    warningWindowMinutes: 60,
    problems: true,
    codeLens: true,
    hover: true,
    explorer: true,
  },
};

/** A namespace name as the apiserver accepts it (an RFC 1123 label). */
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** Go's int on 64-bit machines holds more, but nothing here needs more than this. */
const MAX_INT = 2 ** 31 - 1;

type Raw = Record<string, unknown>;

export function validateSettings(raw: Raw): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  const key = (k: string) => `kubernetesEvents.${k}`;
  const show = (v: unknown) => JSON.stringify(v) ?? String(v);

  const str = (k: string, d: string): string => {
    const v = raw[k];
    if (v === undefined || v === null) return d;
    if (typeof v === 'string') return v.trim();
    problems.push(`${key(k)} is ${show(v)}; it must be text. Using ${show(d)}.`);
    return d;
  };
  const bool = (k: string, d: boolean): boolean => {
    const v = raw[k];
    if (v === undefined || v === null) return d;
    if (typeof v === 'boolean') return v;
    problems.push(`${key(k)} is ${show(v)}; it must be true or false. Using ${d}.`);
    return d;
  };
  const int = (k: string, d: number, min: number, why: string): number => {
    const v = raw[k];
    if (v === undefined || v === null) return d;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_INT) return v;
    problems.push(`${key(k)} is ${show(v)}; it must be a whole number of at least ${min} (${why}). Using ${d}.`);
    return d;
  };
  const num = (k: string, d: number, min: number, exclusive: boolean, why: string): number => {
    const v = raw[k];
    if (v === undefined || v === null) return d;
    if (typeof v === 'number' && Number.isFinite(v) && (exclusive ? v > min : v >= min)) return v;
    problems.push(`${key(k)} is ${show(v)}; it must be a number ${exclusive ? 'above' : 'of at least'} ${min} (${why}). Using ${d}.`);
    return d;
  };

  let namespaces: string[] = [];
  const ns = raw.namespaces;
  if (ns !== undefined && ns !== null) {
    if (!Array.isArray(ns)) problems.push(`${key('namespaces')} is ${show(ns)}; it must be a list of namespace names. Watching every namespace.`);
    else {
      const bad = ns.filter((n) => typeof n !== 'string' || !NAMESPACE.test(n));
      if (bad.length > 0) problems.push(`${key('namespaces')} has ${bad.map(show).join(', ')}, which ${bad.length === 1 ? 'is not a namespace name' : 'are not namespace names'} (lower-case letters, digits and '-'). ${bad.length === ns.length ? 'Watching every namespace.' : 'Leaving them out.'}`);
      namespaces = [...new Set(ns.filter((n): n is string => typeof n === 'string' && NAMESPACE.test(n)))];
    }
  }
  let sortOrder = DEFAULT_SETTINGS.sortOrder;
  if (raw.sortOrder !== undefined && raw.sortOrder !== null) {
    if (isSortOrder(raw.sortOrder)) sortOrder = raw.sortOrder;
    else problems.push(`${key('sortOrder')} is ${show(raw.sortOrder)}; it must be "lastSeen", "warnings" or "name". Using "lastSeen".`);
  }
  let groupBy: GroupBy = raw.groupByNamespace === true ? 'namespace' : DEFAULT_SETTINGS.groupBy;
  if (raw.groupBy !== undefined && raw.groupBy !== null) {
    if (GROUP_BYS.includes(raw.groupBy as GroupBy)) groupBy = raw.groupBy as GroupBy;
    else problems.push(`${key('groupBy')} is ${show(raw.groupBy)}; it must be "object", "namespace" or "workload". Using "${groupBy}".`);
  }
  const d = DEFAULT_SETTINGS;
  let scope = d.manifests.scope;
  if (raw['manifests.scope'] !== undefined && raw['manifests.scope'] !== null) {
    if (MANIFEST_SCOPES.includes(raw['manifests.scope'] as ManifestScope)) scope = raw['manifests.scope'] as ManifestScope;
    else problems.push(`${key('manifests.scope')} is ${show(raw['manifests.scope'])}; it must be "off", "openEditors" or "workspace". Using "${scope}".`);
  }
  let exclude = d.manifests.exclude;
  const ex = raw['manifests.exclude'];
  if (ex !== undefined && ex !== null) {
    if (Array.isArray(ex) && ex.every((g) => typeof g === 'string')) exclude = ex;
    else problems.push(`${key('manifests.exclude')} is ${show(ex)}; it must be a list of glob patterns. Using the default list.`);
  }
  const settings: Settings = {
    kubeconfig: str('kubeconfig', d.kubeconfig),
    context: str('context', d.context),
    namespaces,
    warningsOnly: bool('warningsOnly', d.warningsOnly),
    groupBy,
    sortOrder,
    historyWindowHours: num('historyWindowHours', d.historyWindowHours, 0, false, 'hours of history to keep'),
    storeCap: int('storeCap', d.storeCap, 100, 'events kept in memory'),
    maxChildren: int('maxChildren', d.maxChildren, 1, 'events shown under one object'),
    sinkEnabled: bool('sink.enabled', d.sinkEnabled),
    showManagedFields: bool('yaml.showManagedFields', d.showManagedFields),
    notifyWarnings: bool('notifications.enabled', d.notifyWarnings),
    walkthroughOnFirstRun: bool('walkthrough.openOnFirstRun', d.walkthroughOnFirstRun),
    correlator: {
      burstSize: int('correlator.burstSize', d.correlator.burstSize, 1, "client-go's spam filter burst is an int"),
      qps: num('correlator.qps', d.correlator.qps, 0, true, "client-go's spam filter refill rate is a float32 above 0"),
      maxEvents: int('correlator.aggregateMaxEvents', d.correlator.maxEvents, 2, "client-go's aggregator counts similar events in an int"),
      maxIntervalInSeconds: int('correlator.aggregateIntervalSeconds', d.correlator.maxIntervalInSeconds, 1, "client-go's aggregator interval is an int of seconds"),
    },
    manifests: {
      scope,
      include: str('manifests.include', d.manifests.include) || d.manifests.include,
      exclude,
      warningWindowMinutes: num('manifests.warningWindowMinutes', d.manifests.warningWindowMinutes, 0, true, 'minutes a warning stays in the Problems panel'),
      problems: bool('manifests.problems', d.manifests.problems),
      codeLens: bool('manifests.codeLens', d.manifests.codeLens),
      hover: bool('manifests.hover', d.manifests.hover),
      explorer: bool('manifests.explorerDecorations', d.manifests.explorer),
    },
  };
  return { settings, problems };
}
