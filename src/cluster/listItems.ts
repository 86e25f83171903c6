// A list response read as it arrives, without parsing it whole: the list's metadata as soon as
// it is in (a paged list asks for its next page then), and each item kept as its own JSON
// text, to be parsed a few at a time by whoever handles the page. A page of 500 events parsed
// whole is some 20,000 objects alive at once, which every young-generation collection during
// its handling copies (the stalls of a large sync); 500 texts are 500 strings.
import type { ListMetadata } from './apiRequest';

/** A list page: its metadata and its items, each still JSON text. */
export interface ListText {
  readonly metadata: ListMetadata;
  readonly items: string[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Where the reader is in the list object. */
const enum At {
  /** Before the list's opening brace. */
  Start,
  /** Inside the list object, before a field's name (or its closing brace). */
  Key,
  /** After a field's name, before its colon. */
  Colon,
  /** After the colon, before the field's value. */
  Value,
  /** Inside a value other than the items (metadata, kind...), read whole. */
  InValue,
  /** Inside the items array, before an item (or the closing bracket). */
  Item,
  /** Inside one item. */
  InItem,
  /** After a field's value: a comma, or the list's closing brace. */
  Next,
  /** After the list's closing brace. */
  End,
}

/** Bytes of a string scanned one by one before the search is left to indexOf (a call costs more than a short key). */
const SHORT_STRING = 16;

/** Where the string that `from` is inside ends (its closing quote), or -1 if not in this chunk. */
function stringEnd(chunk: Buffer, from: number): number {
  const n = chunk.length;
  const short = Math.min(n, from + SHORT_STRING);
  let i = from;
  for (; i < short; i++) {
    const c = chunk[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  if (i >= n) return -1;
  for (let q = chunk.indexOf(QUOTE, i); q >= 0; q = chunk.indexOf(QUOTE, q + 1)) {
    // Escaped when an odd run of backslashes stands before it (those before `i` were paired above).
    if (!oddBackslashesBefore(chunk, q, i)) return q;
  }
  return -1;
}

/** Whether the run of backslashes just before `end` (not reaching back past `from`) is odd. */
function oddBackslashesBefore(chunk: Buffer, end: number, from: number): boolean {
  let b = end - 1;
  while (b >= from && chunk[b] === BACKSLASH) b--;
  return ((end - 1 - b) & 1) === 1;
}

/**
 * Reads a list body chunk by chunk (bytes of UTF-8: no byte of a multi-byte character is an
 * ASCII delimiter, so a chunk may end anywhere). The fields may come in any order and with
 * any white space; only the list's own fields are read here, each item's text is left whole.
 * Anything that is not a JSON object throws.
 */
export class ListItemReader {
  private at = At.Start;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private key = '';
  /** The value or item being read: its pieces from earlier chunks, and where it starts in this one. */
  private pieces: Buffer[] = [];
  private from = -1;
  private readonly items: string[] = [];
  private metadata: ListMetadata = {};
  private sawItems = false;

  constructor(private readonly onMetadata?: (metadata: ListMetadata) => void) {}

  push(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    if (this.inString && this.escaped && n > 0) {
      // The previous chunk ended on a backslash inside a string: this byte is escaped.
      this.escaped = false;
      i = 1;
    }
    for (; i < n; i++) {
      if (this.inString) {
        const end = stringEnd(chunk, i);
        if (end < 0) {
          this.escaped = oddBackslashesBefore(chunk, n, i);
          break;
        }
        i = end;
        this.inString = false;
        if (this.at === At.Key) this.endKey(chunk, i);
        continue;
      }
      const c = chunk[i];
      switch (this.at) {
        case At.InItem:
        case At.InValue:
          if (c === QUOTE) this.inString = true;
          else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.depth++;
          else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
            if (this.depth === 0) this.endValue(chunk, i, c);
            else this.depth--;
          } else if (c === COMMA && this.depth === 0) this.endValue(chunk, i, c);
          break;
        case At.Item:
          if (isSpace(c)) break;
          if (c === CLOSE_BRACKET && this.items.length === 0) this.at = At.Next;
          else if (c === COMMA || c === CLOSE_BRACKET) this.fail();
          else {
            this.begin(i, At.InItem);
            i--; // read the item's first byte as part of it
          }
          break;
        case At.Key:
          if (isSpace(c)) break;
          if (c === QUOTE) {
            this.inString = true;
            this.begin(i, At.Key);
          } else if (c === CLOSE_BRACE && this.key === '') this.at = At.End;
          else this.fail();
          break;
        case At.Next:
          if (isSpace(c)) break;
          if (c === COMMA) this.at = At.Key;
          else if (c === CLOSE_BRACE) this.at = At.End;
          else this.fail();
          break;
        case At.Colon:
          if (isSpace(c)) break;
          if (c === COLON) this.at = At.Value;
          else this.fail();
          break;
        case At.Value:
          if (isSpace(c)) break;
          if (this.key === 'items' && c === OPEN_BRACKET) {
            this.sawItems = true;
            this.at = At.Item;
          } else {
            this.begin(i, At.InValue);
            i--;
          }
          break;
        case At.Start:
          if (isSpace(c)) break;
          if (c === OPEN_BRACE) this.at = At.Key;
          else this.fail();
          break;
        case At.End:
          if (!isSpace(c)) this.fail();
          break;
      }
    }
    // A value or item not yet complete keeps its part of this chunk.
    if (this.from >= 0) {
      this.pieces.push(chunk.subarray(this.from));
      this.from = 0;
    }
  }

  /** The whole list, once every chunk has been pushed. */
  end(): ListText {
    if (this.at !== At.End) this.fail();
    return { metadata: this.metadata, items: this.sawItems ? this.items : [] };
  }

  private begin(i: number, at: At): void {
    this.at = at;
    this.depth = 0;
    this.pieces = [];
    this.from = i;
  }

  /** The text read from `from` (in earlier chunks too) up to `i` of this chunk. */
  private taken(chunk: Buffer, i: number): string {
    const text = this.pieces.length === 0 ? chunk.toString('utf8', this.from, i) : Buffer.concat([...this.pieces, chunk.subarray(0, i)]).toString('utf8');
    this.pieces = [];
    this.from = -1;
    return text;
  }

  private endKey(chunk: Buffer, i: number): void {
    this.key = JSON.parse(this.taken(chunk, i + 1)) as string;
    this.at = At.Colon;
  }

  /** A value or an item ended at byte i (a comma, or its container's closing brace or bracket). */
  private endValue(chunk: Buffer, i: number, c: number): void {
    const text = this.taken(chunk, i);
    if (this.at === At.InItem) {
      if (c === CLOSE_BRACE) this.fail();
      this.items.push(text);
      this.at = c === COMMA ? At.Item : At.Next;
      return;
    }
    if (c === CLOSE_BRACKET) this.fail();
    const value = JSON.parse(text) as unknown;
    if (this.key === 'metadata' && value && typeof value === 'object') {
      this.metadata = value as ListMetadata;
      this.onMetadata?.(this.metadata);
    } else if (this.key === 'items' && value !== null) this.fail();
    this.at = c === COMMA ? At.Key : At.End;
  }

  private fail(): never {
    throw new SyntaxError('not a list');
  }
}

/**
 * The field as the apiserver writes it: always a list (left out when empty), so an
 * annotation or label of that name, whose value is a string, is never taken for it.
 */
const MANAGED_FIELDS = '"managedFields":[';

/**
 * An object's JSON text without its metadata.managedFields (the first list so named: the
 * apiserver writes metadata first, and managedFields the last of its fields). Nothing here
 * reads them, and they are half the objects of a parsed event (one per field the writer
 * set), garbage the moment they are parsed.
 */
export function withoutManagedFields(text: string): string {
  const at = text.indexOf(MANAGED_FIELDS);
  if (at < 0) return text;
  const end = valueEnd(text, at + MANAGED_FIELDS.length - 1);
  if (end < 0) return text;
  // With the comma before it (or, when it is the first field, the one after).
  if (text.charCodeAt(at - 1) === COMMA) return text.slice(0, at - 1) + text.slice(end);
  return text.slice(0, at) + text.slice(text.charCodeAt(end) === COMMA ? end + 1 : end);
}

/** Where the JSON value starting at `from` ends (just past it), or -1 if it does not. */
function valueEnd(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (c === COMMA && depth === 0) return i;
  }
  return -1;
}
