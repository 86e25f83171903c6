// The event machinery's Logger, written to a LogOutputChannel. Never logs a token or a key:
// the machinery logs events and errors, and errors are reduced to their message.
import * as vscode from 'vscode';
import { errorText, formatKeysAndValues, type KeysAndValues, type Logger } from '../record/logger';

export class OutputChannelLogger implements Logger {
  constructor(readonly channel: vscode.LogOutputChannel) {}

  info(verbosity: number, message: string, kv?: KeysAndValues): void {
    const line = `${message} ${formatKeysAndValues(kv)}`.trim();
    if (verbosity <= 0) this.channel.info(line);
    else if (verbosity <= 4) this.channel.debug(line);
    else this.channel.trace(line);
  }

  error(err: unknown, message: string, kv?: KeysAndValues): void {
    const reason = err === undefined ? '' : ` err=${JSON.stringify(errorText(err))}`;
    this.channel.error(`${message}${reason} ${formatKeysAndValues(kv)}`.trim());
  }
}
