// Runs one async job at a time where only the latest request matters: a new request aborts
// the one running (through its AbortSignal), waits for it to finish, then runs; requests
// that were overtaken while waiting never start. Connecting to a cluster is such a job:
// two Refresh clicks, or two context changes in a row, must leave exactly one connection.

export class LatestOnly {
  private running: { controller: AbortController; done: Promise<void> } | undefined;
  private generation = 0;

  /**
   * Resolves when this request has run, or has been overtaken (then `false`). The job sees
   * its signal aborted when a newer request arrives; it should stop promptly.
   */
  async run(job: (signal: AbortSignal) => Promise<void>): Promise<boolean> {
    const mine = ++this.generation;
    while (this.running) {
      this.running.controller.abort();
      await this.running.done;
      if (mine !== this.generation) return false;
    }
    if (mine !== this.generation) return false;
    const controller = new AbortController();
    const done = job(controller.signal).finally(() => {
      if (this.running?.controller === controller) this.running = undefined;
    });
    this.running = { controller, done: done.catch(() => undefined) };
    await done;
    return !controller.signal.aborted;
  }

  /** Aborts whatever runs and waits for it; later run() calls still work. */
  async cancel(): Promise<void> {
    this.generation++;
    const running = this.running;
    running?.controller.abort();
    await running?.done;
  }
}
