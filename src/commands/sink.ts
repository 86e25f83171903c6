// Enable Sink and Disable Sink (the view's "..." menu and the palette).
import type * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { SinkConsent } from '../views/sinkConsent';
import { registerPlainCommand } from './registry';

export function registerSinkCommands(consent: SinkConsent): vscode.Disposable[] {
  return [registerPlainCommand(Commands.enableSink, () => consent.enable()), registerPlainCommand(Commands.disableSink, () => consent.disable())];
}
