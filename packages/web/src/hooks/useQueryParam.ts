// A view state that lives in the address's query (?name=value), so a copied link opens the same view.
import { useCallback } from 'react';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';

/** The parameter's value ('' when absent) and a setter that replaces the address (an empty value removes it). */
export function useQueryParam(name: string): [string, (value: string) => void] {
  const search = useSearch();
  const value = new URLSearchParams(search).get(name) ?? '';
  const set = useCallback(
    (next: string) => {
      const params = new URLSearchParams(window.location.search);
      if (next) params.set(name, next);
      else params.delete(name);
      const query = params.toString();
      navigate(`${window.location.pathname}${query ? `?${query}` : ''}`, { replace: true });
    },
    [name],
  );
  return [value, set];
}
