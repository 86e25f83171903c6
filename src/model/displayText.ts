// Event text as a row, a tooltip or a human-readable export shows it. Anyone who may create
// events writes their text, so characters that could act on a terminal or reorder what is
// shown are made visible instead: ESC and CR exactly as kubectl prints them
// (cli-runtime printers.EscapeTerminal: "^[" and "\r"), every other C0 and C1 control as
// \xHH or \uHHHH, and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069)
// as \uHHHH, since they can make a line read differently from what it holds. Right-to-left
// marks (U+200E, U+200F, U+061C) and joiners stay: real text in Arabic, Hebrew and emoji
// sequences needs them.

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  if (ch === '\u001b') return '^[';
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for a tooltip or a document: line breaks and tabs kept, everything else made visible. */
export function displayText(s: string): string {
  return s.replace(/\r\n?/g, (m) => (m === '\r' ? '\\r' : '\\r\n')).replace(/[\u2028\u2029]/g, '\n').replace(CONTROLS, visible);
}

/** Text on one line (a tree row's label): whitespace runs, line breaks included, become one space. */
export function oneLine(s: string): string {
  return displayText(s).replace(/\s+/g, ' ').trim();
}
