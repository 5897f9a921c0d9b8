import { type ComponentType, createElement, type ReactNode, use, useEffect, useState } from 'react';

/**
 * A screen's (or a panel's) code: `load()` fetches it once; `Component` renders it, like `React.lazy`, with one
 * difference that matters on the first screen.
 *
 * While the code is still loading from an earlier `load()` (app/first-screen.ts starts the screen's code before React
 * renders; a prefetch), `Component` shows `fallback` itself and renders the screen with an ordinary update when the code
 * lands. `React.lazy` would suspend instead, committing the Suspense boundary's fallback, and React 19 holds back the
 * content of a suspended boundary for up to 300 ms after any fallback was shown: on the first screen the space screen
 * and the tree appeared ~250 ms after their code and data were both here. When the code is here, the screen renders in
 * the same pass; when no load was started, `Component` suspends like `React.lazy` (a navigation keeps the screen it
 * leaves until the code is here).
 */
export function lazyModule<P extends object>(
  importer: () => Promise<{ default: ComponentType<P> }>,
  fallback: ReactNode,
): { load: () => Promise<{ default: ComponentType<P> }>; Component: ComponentType<P> } {
  let loaded: { default: ComponentType<P> } | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  let failure: { error: unknown } | undefined;
  const load = () => {
    loading ??= importer().then(
      (module) => {
        loaded = module;
        return module;
      },
      (error: unknown) => {
        loading = undefined; // a later render may try again
        failure = { error };
        throw error;
      },
    );
    return loading;
  };

  function LazyModule(props: P) {
    const [module, setModule] = useState(loaded);
    const [failed, setFailed] = useState<{ error: unknown }>();
    const current = module ?? loaded;
    useEffect(() => {
      if (current || !loading) return;
      let live = true;
      loading.then(
        (m) => live && setModule(m),
        (error: unknown) => live && setFailed({ error }),
      );
      return () => {
        live = false;
      };
    }, [current]);
    if (failed) {
      failure = undefined; // thrown here already
      throw failed.error;
    }
    if (current) return createElement(current.default, props);
    if (loading) return fallback;
    if (failure) {
      // The load below failed: to the error boundary, as React.lazy does (the render after that tries again).
      const { error } = failure;
      failure = undefined;
      throw error;
    }
    return createElement(use(load()).default, props);
  }
  return { load, Component: LazyModule };
}
