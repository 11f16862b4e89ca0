// Paged lists: `await` gives the first page; `for await` walks every item, 50 at a time.
import type { List } from '../schemas/common.js';

export const PAGE_SIZE = 50;

export class PagePromise<T> implements PromiseLike<List<T>>, AsyncIterable<T> {
  readonly #fetchPage: (offset: number, limit: number) => Promise<List<T>>;
  readonly #offset: number;
  readonly #limit: number;
  #first: Promise<List<T>> | undefined;

  constructor(fetchPage: (offset: number, limit: number) => Promise<List<T>>, offset = 0, limit = PAGE_SIZE) {
    this.#fetchPage = fetchPage;
    this.#offset = offset;
    this.#limit = limit;
  }

  #firstPage(): Promise<List<T>> {
    this.#first ??= this.#fetchPage(this.#offset, this.#limit);
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable by design (openai-node's pattern).
  then<R1 = List<T>, R2 = never>(
    onFulfilled?: ((value: List<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let offset = this.#offset;
    let page = await this.#firstPage();
    for (;;) {
      yield* page.data;
      offset += page.data.length;
      if (page.data.length === 0 || page.data.length < this.#limit || offset >= page.count) return;
      page = await this.#fetchPage(offset, this.#limit);
    }
  }

  /** Every item of every page, in order. */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
