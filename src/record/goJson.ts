// Strings as Go's encoding/json writes them: HTML-safe (<, > and & escaped), U+2028 and
// U+2029 escaped, and a lone surrogate (invalid UTF-8 in Go) replaced by U+FFFD.

/** Anything JSON.stringify writes differently from Go: most strings have none of it. */
const GO_DIFFERS = /[<>&\u2028\u2029\ud800-\udfff]/;

export function goJsonString(s: string): string {
  if (!GO_DIFFERS.test(s)) return JSON.stringify(s);
  return JSON.stringify(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
