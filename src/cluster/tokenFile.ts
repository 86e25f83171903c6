// Ported from client-go transport/token_source.go (NewCachedFileTokenSource) and
// round_trippers.go (NewBearerAuthWithRefreshRoundTripper): a bearer token read from a file
// and read again every minute (less a leeway), so a rotated token (a projected service
// account token, a token refreshed by another tool) is picked up without a restart.
import * as fs from 'node:fs';
import { KubeconfigError } from './errors';
import { goOpenError } from './restConfig';

/** How long a token read from the file is used before the file is read again. */
export const TOKEN_FILE_PERIOD_MS = 60_000;
/** The file is read again this long before the period ends. */
export const TOKEN_FILE_LEEWAY_MS = 10_000;

export class CachedFileTokenSource {
  private token: string | undefined;
  private expiry = 0;
  /** The last error reading the file, kept for the log while the old token is still used. */
  lastError: string | undefined;

  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the file (once per period); throws when it cannot be read or is empty. */
  private read(): string {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      throw new Error(`failed to read token file "${this.file}": ${goOpenError(this.file, e)}`);
    }
    const token = text.trim();
    if (!token) throw new Error(`read empty token from file "${this.file}"`);
    return token;
  }

  /**
   * The token to send. A file that cannot be read keeps the last token it gave (client-go logs
   * "Unable to rotate token" and goes on); with no token at all it is a configuration error.
   */
  current(fallback: string, user: string, kubeconfig: string): string {
    const now = this.now();
    if (this.token !== undefined && this.expiry - TOKEN_FILE_LEEWAY_MS > now) return this.token;
    try {
      this.token = this.read();
      this.expiry = now + TOKEN_FILE_PERIOD_MS;
      this.lastError = undefined;
      return this.token;
    } catch (e) {
      this.lastError = (e as Error).message;
      if (this.token !== undefined) return this.token;
      if (fallback) return fallback;
      throw new KubeconfigError(`The token file ${this.file} of user "${user}" (kubeconfig ${kubeconfig}) cannot be used: ${this.lastError}. Fix the file or the user's tokenFile (kubectl: error: ${initialReadError(this.file, e)}).`);
    }
  }
}

/** kubectl reads the file once before anything else, with os.ReadFile: its error has no prefix. */
function initialReadError(file: string, e: unknown): string {
  const m = /: (open .*)$/.exec((e as Error).message);
  return m ? m[1] : (e as Error).message.replace(/^failed to read token file "[^"]*": /, '') || goOpenError(file, e);
}
