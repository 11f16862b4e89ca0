// Applies the site settings once loaded: the auth server's base and analytics (only with a key).
import { useEffect } from 'react';
import { useSettings } from '../hooks/useSettings';
import { initAnalytics } from '../lib/analytics';
import { setAuthServer } from '../lib/client';

export function SettingsEffects() {
  const { data: settings } = useSettings();
  useEffect(() => {
    if (!settings) return;
    setAuthServer(settings.auth_server.url);
    initAnalytics(settings);
  }, [settings]);
  return null;
}
