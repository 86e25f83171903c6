// Disposables, as vscode-pull-request-github's common/lifecycle does it: a long-lived object
// registers what it owns and disposes it with itself, so nothing outlives its owner. Plain
// Node: anything with dispose() fits, vscode.Disposable included.

export interface IDisposable {
  dispose(): unknown;
}

export function toDisposable(dispose: () => unknown): IDisposable {
  return { dispose };
}

/** Disposes each, last registered first; one that throws does not stop the others. */
export function disposeAll(disposables: IDisposable[]): void {
  const errors: unknown[] = [];
  while (disposables.length > 0) {
    try {
      void disposables.pop()?.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
}

export abstract class Disposable implements IDisposable {
  private readonly owned: IDisposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Takes ownership: t is disposed with this object (at once if this one is already gone). */
  protected _register<T extends IDisposable>(t: T): T {
    if (this.disposed) void t.dispose();
    else this.owned.push(t);
    return t;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.owned);
  }
}
