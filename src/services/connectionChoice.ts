// Which kubeconfig and context the view connects to, decided in one place. The context,
// first that is given:
//   1. the one picked with Switch Context in this window (until the context setting changes,
//      or the Kubernetes extension switches context: the newer choice wins);
//   2. the kubernetesEvents.context setting;
//   3. the context the Kubernetes extension switched to, while the view reads its kubeconfig;
//   4. the kubeconfig's current-context.
// The kubeconfig: the kubernetesEvents.kubeconfig setting, else the one the Kubernetes
// extension uses, else KUBECONFIG (merged as kubectl merges it), else ~/.kube/config.

export interface ConnectSettings {
  readonly kubeconfig: string;
  readonly context: string;
  readonly namespaces: readonly string[];
}

export interface ConnectRequest {
  /** The context; the kubeconfig's current one when undefined. */
  readonly context?: string;
  /** An explicit kubeconfig path; KUBECONFIG or ~/.kube/config when undefined. */
  readonly kubeconfigPath?: string;
  /** Namespaces to watch; every namespace when empty or undefined. */
  readonly namespaces?: readonly string[];
}

export class ConnectionChoice {
  private picked: string | undefined;
  private followedContext: string | undefined;
  /** The kubeconfig another extension (the Kubernetes extension) says to use. */
  private followedPath: string | undefined;

  /** The user picked a context in this window (Switch Context). */
  pick(context: string): void {
    this.picked = context;
  }

  /** The Kubernetes extension's kubeconfig, and the context it switched to (undefined: it did not). */
  follow(kubeconfigPath: string | undefined, context?: string): void {
    // A context names one in the file it came from: another file starts at its current context.
    if (kubeconfigPath !== this.followedPath) this.followedContext = undefined;
    this.followedPath = kubeconfigPath;
    if (context === undefined) return;
    this.followedContext = context;
    this.picked = undefined;
  }

  /** The context setting changed: it wins over an earlier pick. */
  contextSettingChanged(): void {
    this.picked = undefined;
  }

  /** The kubeconfig path to read (undefined: KUBECONFIG, then ~/.kube/config). */
  kubeconfigPath(settings: ConnectSettings): string | undefined {
    return settings.kubeconfig || this.followedPath || undefined;
  }

  request(settings: ConnectSettings): ConnectRequest {
    return {
      context: this.picked ?? (settings.context || (settings.kubeconfig ? undefined : this.followedContext) || undefined),
      kubeconfigPath: this.kubeconfigPath(settings),
      namespaces: settings.namespaces,
    };
  }
}

/** Whether a settings change asks for another connection (kubeconfig, context or namespaces). */
export function connectionSettingsChanged(before: ConnectSettings, after: ConnectSettings): boolean {
  return before.kubeconfig !== after.kubeconfig || before.context !== after.context || before.namespaces.join() !== after.namespaces.join();
}
