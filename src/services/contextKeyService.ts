// Sets VS Code context keys, skipping values that did not change (each set is a round trip
// to the workbench).
import * as vscode from 'vscode';
import type { ContextKey } from '../common/contextKeys';

export class ContextKeyService {
  private readonly values = new Map<ContextKey, unknown>();

  set(key: ContextKey, value: unknown): void {
    if (this.values.has(key) && this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  get(key: ContextKey): unknown {
    return this.values.get(key);
  }
}
