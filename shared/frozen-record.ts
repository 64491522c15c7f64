// A frozen record of primitives: a plain object that Object.freeze made read-only and whose own
// members are all data properties holding primitives (bigint, string, number, boolean, null,
// undefined). Nothing can change what such an object holds, so whatever is derived from it (its
// JSON text, a copy of it) stays true for as long as the object lives. Main's order and fill views
// are built this way; the bridge encoder keeps their text, and the window hub keeps them by
// reference instead of copying them, on every orders push.

/** Objects already found to be frozen records (a frozen object cannot stop being one). */
const known = new WeakSet<object>();

/** Whether `value` is a plain object, frozen, with only primitive data members. */
export function isFrozenRecord(value: object): boolean {
  // Most objects a frame carries are not frozen: that test first, before the set's lookup.
  if (!Object.isFrozen(value)) return false;
  if (known.has(value)) return true;
  if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  // Checked once per object: an accessor would compute its value on each read, and a member that
  // is an object could itself change.
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as keyof typeof descriptors] as PropertyDescriptor;
    if (!('value' in descriptor)) return false;
    const member: unknown = descriptor.value;
    if ((member !== null && typeof member === 'object') || typeof member === 'function' || typeof member === 'symbol') return false;
  }
  known.add(value);
  return true;
}

/**
 * Two flat records with the same own members holding the same primitives. A member holding an
 * object counts as a difference (unless the records are the very same object): such a record is
 * treated as changed rather than wrongly kept. Order and fill views, on both ends of the bridge.
 */
export function sameFlatRecord(left: object, right: object): boolean {
  if (left === right) return true;
  const a = left as Record<string, unknown>;
  const b = right as Record<string, unknown>;
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    count++;
    const value = a[key];
    if (!Object.hasOwn(b, key) || value !== b[key] || (typeof value === 'object' && value !== null)) return false;
  }
  for (const key in b) if (Object.hasOwn(b, key) && --count < 0) return false;
  return count === 0;
}
