// Runs an async action once at a time, with the error shown through sonner.
import { errorMessage } from '@kernelforge/sdk';
import { useCallback, useState } from 'react';
import { toast } from 'sonner';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(action: () => Promise<T>, fallback: string, success?: string): Promise<T | undefined> => {
      setBusy(true);
      try {
        const result = await action();
        if (success) toast.success(success);
        return result;
      } catch (error) {
        toast.error(errorMessage(error, fallback));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  return { busy, run };
}
