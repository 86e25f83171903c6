// Sets VS Code context keys, skipping values that did not change (each set is a round trip
// to the workbench).
import * as vscode from 'vscode';
import type { ContextKey, ContextKeySetter, ContextKeyValue } from '../common/contextKeys';

export class ContextKeyService implements ContextKeySetter {
  private readonly values = new Map<ContextKey, unknown>();

  set<K extends ContextKey>(key: K, value: ContextKeyValue<K>): void {
    if (this.values.has(key) && this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
