/**
 * Work done one at a time, in the order it was asked for: each piece starts once the one before
 * has settled, whether it succeeded or failed.
 */
export function inTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let line: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = line.then(work);
    line = turn.catch(() => undefined);
    return turn;
  };
}
