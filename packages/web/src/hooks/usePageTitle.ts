// Sets the document title to a page's title, word for word as the spec gives it ('Admin Dashboard', ...).
import { useEffect } from 'react';

export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
