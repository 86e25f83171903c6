// Clear Notification Mutes: every object and reason muted from a warning notification is
// told again.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { WarningNotifier } from '../services/warningNotifier';
import { registerPlainCommand } from './registry';

export function registerNotificationCommands(notifier: WarningNotifier): vscode.Disposable[] {
  return [
    registerPlainCommand(Commands.clearNotificationMutes, async () => {
      await notifier.setMutes({ objects: [], reasons: [] });
      vscode.window.setStatusBarMessage('Warning notifications: nothing muted.', 5000);
    }),
  ];
}
