// The root: theme, SWR (fresh cache, retry policy, one 401 path), router, error view, toasts.
import { useMemo, useRef } from 'react';
import { Toaster } from 'sonner';
import { SWRConfig } from 'swr';
import { type BaseLocationHook, type BaseSearchHook, Router } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary';
import { ScrollRestoration } from './components/ScrollRestoration';
import { SettingsEffects } from './components/SettingsEffects';
import { ThemeProvider, useTheme } from './components/ThemeProvider';
import { UnauthorizedHandler } from './components/UnauthorizedHandler';
import { swrConfig } from './lib/swrConfig';
import { AppRoutes } from './routes';

export interface AppProps {
  /** wouter location hooks; tests pass memoryLocation()'s. */
  location?: { hook: BaseLocationHook; searchHook?: BaseSearchHook };
}

/** Spec section 9: bottom-right, rich colours, Alt+T, 4000 ms, 3 visible. */
export const TOASTER_OPTIONS = {
  position: 'bottom-right',
  richColors: true,
  hotkey: ['altKey', 'KeyT'],
  duration: 4000,
  visibleToasts: 3,
} as const;

function Toasts() {
  const { theme } = useTheme();
  return (
    <Toaster
      position={TOASTER_OPTIONS.position}
      richColors={TOASTER_OPTIONS.richColors}
      hotkey={[...TOASTER_OPTIONS.hotkey]}
      duration={TOASTER_OPTIONS.duration}
      visibleToasts={TOASTER_OPTIONS.visibleToasts}
      theme={theme}
      closeButton
    />
  );
}

export function App({ location }: AppProps) {
  const onUnauthorized = useRef<(() => void) | null>(null);
  const config = useMemo(() => swrConfig(() => onUnauthorized.current?.()), []);
  const routerProps = location
    ? { hook: location.hook, ...(location.searchHook ? { searchHook: location.searchHook } : {}) }
    : {};
  return (
    <ThemeProvider>
      <Router {...routerProps}>
        <SWRConfig value={config}>
          <UnauthorizedHandler handlerRef={onUnauthorized} />
          <SettingsEffects />
          <ScrollRestoration />
          <ErrorBoundary>
            <AppRoutes />
          </ErrorBoundary>
        </SWRConfig>
      </Router>
      <Toasts />
    </ThemeProvider>
  );
}
