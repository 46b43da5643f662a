/**
 * Which owner holds the largest part of a bounded store: a max-heap of
 * owners by a number the store keeps up to date (its share), so that the
 * store finds whom to evict from in O(1) and updates a share in
 * O(log owners), however many owners there are.
 *
 * @internal
 */
export interface LargestOwner {
  /** Sets `owner`'s share; 0 removes it. */
  set(owner: string, share: number): void;
  /** The owner with the largest share, or undefined when none holds anything. */
  top(): string | undefined;
}

export function largestOwner(): LargestOwner {
  const heap: { owner: string; share: number }[] = [];
  const position = new Map<string, number>();

  const swap = (a: number, b: number): void => {
    const first = heap[a]!;
    const second = heap[b]!;
    heap[a] = second;
    heap[b] = first;
    position.set(second.owner, a);
    position.set(first.owner, b);
  };
  const up = (index: number): void => {
    let at = index;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (heap[parent]!.share >= heap[at]!.share) return;
      swap(parent, at);
      at = parent;
    }
  };
  const down = (index: number): void => {
    let at = index;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let largest = at;
      if (left < heap.length && heap[left]!.share > heap[largest]!.share) largest = left;
      if (right < heap.length && heap[right]!.share > heap[largest]!.share) largest = right;
      if (largest === at) return;
      swap(at, largest);
      at = largest;
    }
  };

  return {
    set(owner, share) {
      const at = position.get(owner);
      if (at === undefined) {
        if (share <= 0) return;
        heap.push({ owner, share });
        position.set(owner, heap.length - 1);
        up(heap.length - 1);
        return;
      }
      if (share <= 0) {
        const last = heap.length - 1;
        if (at !== last) swap(at, last);
        heap.pop();
        position.delete(owner);
        if (at < heap.length) {
          up(at);
          down(at);
        }
        return;
      }
      heap[at]!.share = share;
      up(at);
      down(at);
    },
    top: () => heap[0]?.owner,
  };
}
