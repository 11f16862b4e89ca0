// React.lazy with a preload() that links call on intent, so the chunk is often there before the click.
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type LazyPage<P> = LazyExoticComponent<ComponentType<P>> & {
  preload: () => Promise<unknown>;
  /** The component itself once its chunk has loaded: rendering it skips Suspense and React's reveal delay. */
  loaded: () => ComponentType<P> | undefined;
};

export function lazyPage<P>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  let component: ComponentType<P> | undefined;
  const once = () => {
    pending ??= load().then(
      (module) => {
        component = module.default;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return Object.assign(lazy(once), { preload: once, loaded: () => component });
}
