// Sets the document title to a page's title.
import { useEffect } from 'react';

export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · Kernelforge`;
  }, [title]);
}
