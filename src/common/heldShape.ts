// Objects kept for the life of the process so that V8 keeps their hidden classes.
//
// V8 gives each field of an object literal the representation of the first values stored
// in it: a field that has only ever held numbers keeps each one in a box of its own (16
// bytes, and one more object for every collection to mark). An object made first with
// `undefined` in such a field makes it hold references instead, so a number parsed once is
// shared (normalize.ts: the times of one second). That lasts only while the hidden class
// does: once no object has it, a collection may drop it and the next object starts afresh
// with boxed numbers. That happened when the first object was a bare statement (heap per
// stored event back from 902 to 949 bytes at 50,000, and no test saw it).

const held: object[] = [];

/** Keeps `o` alive for good (and with it its hidden class); returns it. */
export function holdShape<T extends object>(o: T): T {
  held.push(o);
  return o;
}
