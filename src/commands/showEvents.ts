// Show Events for Object: for other extensions and links, with {kind, name, namespace?,
// uid?}; any other argument is refused with a message, never guessed at.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import { asObjectRef } from '../model/filters';
import type { NavigationService } from '../services/navigationService';

export function registerShowEventsCommands(navigation: NavigationService): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.showEventsForObject, async (arg?: unknown) => {
      const q = asObjectRef(arg);
      if (!q) {
        void vscode.window.showErrorMessage('Show Events for Object needs an object: {kind, name, namespace?, uid?} with kind and name given.');
        return undefined;
      }
      const result = await navigation.showEvents(q);
      if (!result.shown) void vscode.window.showInformationMessage(result.text);
      return result.shown;
    }),
  ];
}
