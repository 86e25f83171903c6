// The timeline's tooltip: an event's details, asked of the host by uid and shown as text
// (textContent only) beside the pointer or the keyboard cursor, kept inside the plot.
import type { WebviewMessage } from '../protocol';

export class Tooltip {
  /** The uid whose details the tooltip waits for, and where to show them. */
  private asked: { uid: string; x: number; y: number; forCursor: boolean } | undefined;

  constructor(
    private readonly el: HTMLDivElement,
    private readonly plot: HTMLDivElement,
    private readonly post: (m: WebviewMessage) => void,
  ) {}

  /** It shows (or waits for) the keyboard cursor's event. */
  get forCursor(): boolean {
    return this.asked?.forCursor ?? false;
  }

  ask(uid: string, x: number, y: number, forCursor: boolean): void {
    this.asked = { uid, x, y, forCursor };
    this.post({ type: 'details', uid });
  }

  /** The host's answer: shown if it is the one still asked for. */
  show(uid: string, text: string | undefined): void {
    const a = this.asked;
    if (!a || a.uid !== uid) return;
    this.el.textContent = text ?? 'This event is no longer in the store.';
    this.el.hidden = false;
    this.place(a.x, a.y);
  }

  hide(): void {
    this.asked = undefined;
    this.el.hidden = true;
    this.el.textContent = '';
  }

  /** Puts the tooltip at (x, y) in the plot, moved back inside where it would leave it. */
  place(x: number, y: number): void {
    const w = this.el.offsetWidth;
    const h = this.el.offsetHeight;
    const r = this.plot.getBoundingClientRect();
    const left = x + w > r.width - 4 ? Math.max(4, x - w - 24) : x;
    const top = y + h > r.height - 4 ? Math.max(4, y - h - 28) : y;
    this.el.style.left = `${left}px`;
    this.el.style.top = `${top}px`;
    if (this.asked) {
      this.asked.x = x;
      this.asked.y = y;
    }
  }
}
