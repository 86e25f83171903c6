// Controller event text that differs between the Kubernetes releases the cluster layer runs on.
import { kubeRelease } from '../env/versions';

/**
 * The deployment controller's ScalingReplicaSet message: "from <old> to <new>" since 1.32,
 * "to <new> from <old>" (and "to <new>" for a new ReplicaSet) before it.
 */
export function scalingMessage(direction: 'up' | 'down', replicaSet: string, from: number, to: number): string {
  if (kubeRelease().minor >= 32) return `Scaled ${direction} replica set ${replicaSet} from ${from} to ${to}`;
  return from === 0 && direction === 'up' ? `Scaled up replica set ${replicaSet} to ${to}` : `Scaled ${direction} replica set ${replicaSet} to ${to} from ${from}`;
}

/** The StatefulSet controller's verb in its pod events: strings.ToLower through 1.34, cases.Title in 1.37. */
export function statefulSetVerb(verb: 'create' | 'delete'): string {
  return kubeRelease().minor >= 37 ? verb[0].toUpperCase() + verb.slice(1) : verb;
}
