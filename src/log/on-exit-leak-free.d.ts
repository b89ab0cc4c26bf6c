// on-exit-leak-free 2.x ships no types: the part of its API the log destination uses.
declare module 'on-exit-leak-free' {
  /** Calls `fn(obj, event)` on the process's exit and beforeExit, for as long as `obj` is alive. */
  export function register<T extends object>(obj: T, fn: (obj: T, event: 'exit' | 'beforeExit') => void): void;
  export function unregister(obj: object): void;
  const onExit: { register: typeof register; unregister: typeof unregister };
  export default onExit;
}
