// What the connection is doing, in words for the user, from the state of each watch: the
// worst watch decides (a forbidden namespace is worse than one reconnecting).
import type { ListWatchState } from '../cluster/listWatch';

export type ConnectionPhase =
  /** Reading the kubeconfig, or the first list has not finished. */
  | 'loading'
  /** Every watch is open. */
  | 'live'
  /** A watch failed and waits before trying again (network, apiserver down). */
  | 'reconnecting'
  /** No kubeconfig file at all. */
  | 'noKubeconfig'
  /** The kubeconfig or its credentials cannot be used: the user must change something. */
  | 'badKubeconfig'
  /** The user may not list or watch events here. */
  | 'forbidden'
  /** Not connected (before the first connect, or after a stop). */
  | 'disconnected';

export interface ConnectionStatus {
  readonly phase: ConnectionPhase;
  readonly context?: string;
  /** One sentence for the user ('' when all is well). */
  readonly message: string;
  /** With reconnecting: when the next attempt is. */
  readonly retryInMs?: number;
  /** Loading the first list of this connection (not a relist under rows already shown). */
  readonly firstList?: boolean;
}

type Watch = ListWatchState | { readonly phase: string; readonly message?: string; readonly error?: string; readonly retryInMs?: number };

export function statusOfWatches(context: string | undefined, states: ReadonlyMap<string, Watch>): ConnectionStatus {
  const all = [...states.values()];
  const final = all.find((s) => s.phase === 'forbidden' || s.phase === 'unauthorized' || s.phase === 'configError') as { phase: string; message?: string } | undefined;
  if (final) return { phase: final.phase === 'forbidden' ? 'forbidden' : 'badKubeconfig', context, message: final.message ?? '' };
  const failing = all.find((s) => s.phase === 'backoff') as { error?: string; retryInMs?: number } | undefined;
  if (failing) return { phase: 'reconnecting', context, message: failing.error ?? 'the connection failed', retryInMs: failing.retryInMs };
  if (all.length > 0 && all.every((s) => s.phase === 'watching')) return { phase: 'live', context, message: '' };
  return { phase: 'loading', context, message: '' };
}
