// The one path for a 401 on a query: toast, clear the token, go to / with `redirect=` the current path.
import { type RefObject, useEffect } from 'react';
import { toast } from 'sonner';
import { useSWRConfig } from 'swr';
import { useLocation } from 'wouter';
import { keys } from '../hooks/keys';
import { loginPath, UNAUTHORIZED_MESSAGE } from '../lib/authPaths';
import { clearToken } from '../lib/client';

export function UnauthorizedHandler({ handlerRef }: { handlerRef: RefObject<(() => void) | null> }) {
  const { mutate } = useSWRConfig();
  const [location, navigate] = useLocation();
  useEffect(() => {
    handlerRef.current = () => {
      clearToken();
      toast.error(UNAUTHORIZED_MESSAGE, { id: 'unauthorized' });
      void mutate(keys.me, null, { revalidate: false });
      if (location !== '/') navigate(loginPath(location), { replace: true });
    };
  }, [handlerRef, mutate, location, navigate]);
  return null;
}
