/** The error `make` throws; fails the test when it returns instead. */
export function thrownBy(make: () => unknown): Error {
  try {
    make();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}
