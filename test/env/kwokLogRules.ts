// Which file KWOK serves as each container's log (kwokLogs.ts names the files): ClusterLogs
// rules (sigs.k8s.io/kwok, pkg/apis/v1alpha1/cluster_logs_types.go) in KWOK's --config. KWOK
// takes, for a pod, the first rule in the file whose selector (namespaces, pod names) matches
// and that lists the container, so the specific rules come first and the catch-all, which
// matches every pod and lists no container, last.
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import { checkoutCurrentLog, checkoutPreviousLog } from './checkoutLogs';
import { kwokLogFile, kwokLogsDir, LOGS_CONTAINER, LOGS_NAMESPACE, TEST_LOG_PODS, type LogFile } from './kwokLogs';
import { SEEDED } from './seedCluster';

interface Log {
  containers?: string[];
  logsFile: string;
  previousLogsFile?: string;
}
interface ClusterLogs {
  apiVersion: 'kwok.x-k8s.io/v1alpha1';
  kind: 'ClusterLogs';
  metadata: { name: string };
  spec: { selector?: { matchNamespaces?: string[]; matchNames?: string[] }; logs: Log[] };
}

function clusterLogs(name: string, selector: ClusterLogs['spec']['selector'], logs: Log[]): ClusterLogs {
  return { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'ClusterLogs', metadata: { name }, spec: { ...(selector ? { selector } : {}), logs } };
}

/** The rules of the plane in planeDir, as the multi-document YAML KWOK reads with --config. */
export function kwokLogRulesYaml(planeDir: string): string {
  const { namespace, crashContainer } = SEEDED.payments;
  const rules = [
    // The crash loop's pods have generated names: its namespace and container pick them.
    clusterLogs('kev-checkout', { matchNamespaces: [namespace] }, [
      { containers: [crashContainer], logsFile: kwokLogFile(planeDir, 'checkout'), previousLogsFile: kwokLogFile(planeDir, 'checkoutPrevious') },
    ]),
    ...TEST_LOG_PODS.map((pod) => clusterLogs(`kev-logs-${pod}`, { matchNamespaces: [LOGS_NAMESPACE], matchNames: [pod] }, [
      { containers: [LOGS_CONTAINER], logsFile: kwokLogFile(planeDir, pod) },
    ])),
    clusterLogs('kev-steady', undefined, [{ logsFile: kwokLogFile(planeDir, 'steady') }]),
  ];
  return rules.map((r) => yaml.dump(r, { lineWidth: -1, noRefs: true })).join('---\n');
}

/**
 * Writes the files the rules name that do not exist yet: KWOK fails a request for a log whose
 * file is missing. The crash loop's logs end shortly before planeStart; every other file
 * starts empty (the steady log's writer and the tests fill them).
 */
export function prepareKwokLogs(planeDir: string, planeStart: Date): void {
  fs.mkdirSync(kwokLogsDir(planeDir), { recursive: true });
  const create = (file: string, content: string) => fs.writeFileSync(file, content, { flag: 'wx' });
  const files: [LogFile, string][] = [
    ['checkoutPrevious', checkoutPreviousLog(planeStart)],
    ['checkout', checkoutCurrentLog(planeStart)],
    ['steady', ''],
    ...TEST_LOG_PODS.map((pod): [LogFile, string] => [pod, '']),
  ];
  for (const [name, content] of files) {
    try {
      create(kwokLogFile(planeDir, name), content);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
